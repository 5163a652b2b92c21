import Cascade

/// The answers to a question, loaded page by page as the user scrolls, with likes, reports,
/// deletion of one's own answers, and writing a new one.
public struct AnswerListFeature: Reducer {
  public struct State: Equatable, Sendable {
    public let question: Question
    public var answers: IdentifiedArrayOf<Answer> = []
    /// The cursor for the next page; `nil` before the first page.
    public var threshold: String?
    public var hasNext = true
    /// The cursor of the page being loaded, if any: one load at a time.
    public var loadingThreshold: String??
    public var total = 0
    public var unreadableCount = 0
    public var errorMessage: String?
    @PresentationState public var write: WriteAnswerFeature.State?
    @PresentationState public var alert: AlertState<Action.Alert>?
    @PresentationState public var dialog: ConfirmationDialogState<Action.Dialog>?

    public init(question: Question) { self.question = question }

    public var isLoadingPage: Bool { loadingThreshold != nil }
  }

  public enum Action: Equatable, Sendable {
    case onAppear
    case answerAppeared(Answer.ID)
    case refreshPulled
    case pageResponse(threshold: String?, Result<AnswerPage, QappleError>)
    case likeButtonTapped(Answer.ID)
    case likeResponse(Answer.ID, Result<Bool, QappleError>)
    case reportButtonTapped(Answer.ID)
    case deleteButtonTapped(Answer.ID)
    case actionResponse(Result<Completed, QappleError>)
    case writeButtonTapped
    case write(PresentationAction<WriteAnswerFeature.Action>)
    case alert(PresentationAction<Alert>)
    case dialog(PresentationAction<Dialog>)

    public enum Alert: Equatable, Sendable { case confirmDeletion(Answer.ID) }
    public enum Dialog: Equatable, Sendable { case confirmReport(Answer.ID) }
    public enum Completed: Equatable, Sendable {
      case reported(Answer.ID)
      case deleted(Answer.ID)
    }
  }

  enum CancelID { case page }

  /// Answers per page.
  public static let pageSize = 10
  /// How close to the end an appearing answer must be to load the next page.
  public static let prefetchDistance = 3

  @Dependency(\.answerRepository) var repository
  @Dependency(\.qapplePlantedBug) var plantedBug

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in update(&state, action) }
      .ifLet(\.$write, action: Action.write) { WriteAnswerFeature() }
      .ifLet(\.$alert, action: Action.alert)
      .ifLet(\.$dialog, action: Action.dialog)
  }

  private func update(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      guard state.answers.isEmpty else { return .none }
      return loadPage(&state, after: nil)

    case let .answerAppeared(id):
      guard let index = state.answers.index(id: id),
        index >= state.answers.count - Self.prefetchDistance,
        state.hasNext, !state.isLoadingPage
      else { return .none }
      return loadPage(&state, after: state.threshold)

    case .refreshPulled:
      state.answers = []
      state.threshold = nil
      state.hasNext = true
      state.unreadableCount = 0
      state.loadingThreshold = nil
      return loadPage(&state, after: nil)

    case let .pageResponse(threshold, .success(page)):
      // A response for a page no longer awaited (a refresh happened) is ignored.
      guard state.loadingThreshold == .some(threshold) else { return .none }
      state.loadingThreshold = nil
      state.errorMessage = nil
      for answer in page.answers { state.answers.append(answer) }  // an id twice is kept once
      state.unreadableCount += page.unreadable.count
      state.threshold = page.threshold ?? state.threshold
      state.hasNext = page.hasNext
      state.total = page.total
      return .none

    case let .pageResponse(threshold, .failure(error)):
      guard state.loadingThreshold == .some(threshold) else { return .none }
      state.loadingThreshold = nil
      state.errorMessage = error.message
      return .none

    case let .likeButtonTapped(id):
      guard let answer = state.answers[id: id] else { return .none }
      let isLiked = !answer.isLiked
      state.answers[id: id]?.isLiked = isLiked  // optimistic
      return .run { [repository] send in
        do throws(QappleError) {
          try await repository.setLiked(id, isLiked)
          await send(.likeResponse(id, .success(isLiked)))
        } catch {
          await send(.likeResponse(id, .failure(error)))
        }
      }

    case .likeResponse(_, .success):
      return .none

    case let .likeResponse(id, .failure(error)):
      state.answers[id: id]?.isLiked.toggle()  // roll back
      state.errorMessage = error.message
      return .none

    case let .reportButtonTapped(id):
      state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
        "Report this answer?"
      } actions: {
        ButtonState(role: .destructive, action: .confirmReport(id)) { "Report" }
        ButtonState(role: .cancel) { "Cancel" }
      } message: {
        "Reported answers are hidden and reviewed by the Qapple team."
      }
      return .none

    case let .dialog(.presented(.confirmReport(id))):
      return perform(.reported(id)) { [repository] () async throws(QappleError) in
        try await repository.report(id)
      }

    case let .deleteButtonTapped(id):
      guard state.answers[id: id]?.isMine == true else { return .none }
      state.alert = AlertState {
        "Delete your answer?"
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion(id)) { "Delete" }
        ButtonState(role: .cancel) { "Cancel" }
      } message: {
        "This cannot be undone."
      }
      return .none

    case let .alert(.presented(.confirmDeletion(id))):
      return perform(.deleted(id)) { [repository] () async throws(QappleError) in
        try await repository.delete(id)
      }

    case let .actionResponse(.success(.reported(id))):
      state.answers[id: id]?.isReported = true
      return .none

    case let .actionResponse(.success(.deleted(id))):
      // Counted once: an answer deleted twice before the first response landed (or no longer
      // listed) does not lower the total again.
      if state.answers.remove(id: id) != nil { state.total -= 1 }
      return .none

    case let .actionResponse(.failure(error)):
      state.errorMessage = error.message
      return .none

    case .writeButtonTapped:
      state.write = WriteAnswerFeature.State(questionID: state.question.id)
      return .none

    case let .write(.presented(.delegate(.posted(answer)))):
      state.answers.insert(answer, at: 0)
      state.total += 1
      state.write = nil
      return .none

    case .write, .alert, .dialog:
      return .none
    }
  }

  private func loadPage(_ state: inout State, after threshold: String?) -> Effect<Action> {
    state.loadingThreshold = .some(threshold)
    return .run { [repository, questionID = state.question.id] send in
      do throws(QappleError) {
        let page = try await repository.answers(questionID, threshold, Self.pageSize)
        await send(.pageResponse(threshold: threshold, .success(page)))
      } catch {
        await send(.pageResponse(threshold: threshold, .failure(error)))
      }
    }
    .cancellable(id: CancelID.page, cancelInFlight: plantedBug != .pageLoadWithoutCancelInFlight)
  }

  private func perform(
    _ completed: Action.Completed, _ work: @escaping @Sendable () async throws(QappleError) -> Void
  ) -> Effect<Action> {
    .run { send in
      do throws(QappleError) {
        try await work()
        await send(.actionResponse(.success(completed)))
      } catch {
        await send(.actionResponse(.failure(error)))
      }
    }
  }
}
