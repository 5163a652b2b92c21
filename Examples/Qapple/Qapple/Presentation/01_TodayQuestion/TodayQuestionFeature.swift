import Cascade

/// The app's first screen: today's question, and the way to its answers.
public struct TodayQuestionFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var question: Question?
    public var isLoading = false
    public var errorMessage: String?
    public var path = StackState<Path.State>()

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case onAppear
    case questionResponse(Result<Question, QappleError>)
    case seeAnswersButtonTapped
    case path(StackActionOf<Path>)
  }

  /// The screens pushed over today's question.
  public struct Path: Reducer {
    public enum State: Equatable, Sendable { case answers(AnswerListFeature.State) }
    public enum Action: Equatable, Sendable { case answers(AnswerListFeature.Action) }
    public init() {}
    public var body: some Reducer<State, Action> {
      Scope(state: State.answers, action: Action.answers) { AnswerListFeature() }
    }
  }

  @Dependency(\.answerRepository) var repository

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        state.isLoading = true
        return .run { [repository] send in
          do throws(QappleError) {
            await send(.questionResponse(.success(try await repository.todayQuestion())))
          } catch {
            await send(.questionResponse(.failure(error)))
          }
        }
      case let .questionResponse(.success(question)):
        state.isLoading = false
        state.question = question
        return .none
      case let .questionResponse(.failure(error)):
        state.isLoading = false
        state.errorMessage = error.message
        return .none
      case .seeAnswersButtonTapped:
        guard let question = state.question else { return .none }
        state.path.append(.answers(AnswerListFeature.State(question: question)))
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Path() }
  }
}
