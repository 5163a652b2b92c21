import Cascade
import Foundation

/// Writing an answer to today's question: validated, then posted; the list hears of it
/// through a delegate action.
public struct WriteAnswerFeature: Reducer {
  public struct State: Equatable, Sendable {
    public let questionID: Int
    public var text = ""
    public var errorMessage: String?
    public var isSubmitting = false

    public init(questionID: Int) { self.questionID = questionID }
  }

  public enum Action: Equatable, Sendable {
    case textChanged(String)
    case submitButtonTapped
    case writeResponse(Result<Answer, QappleError>)
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable { case posted(Answer) }
  }

  /// The longest answer accepted.
  public static let maximumLength = 300

  @Dependency(\.answerRepository) var repository

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .textChanged(text):
      state.text = text
      state.errorMessage = nil
      return .none

    case .submitButtonTapped:
      let text = state.text.trimmingCharacters(in: .whitespacesAndNewlines)
      if text.isEmpty {
        state.errorMessage = "Write something before posting."
        return .none
      }
      if text.count > Self.maximumLength {
        state.errorMessage =
          "Answers can be at most \(Self.maximumLength) characters (this one has \(text.count))."
        return .none
      }
      guard !state.isSubmitting else { return .none }
      state.isSubmitting = true
      return .run { [repository, questionID = state.questionID] send in
        do throws(QappleError) {
          await send(.writeResponse(.success(try await repository.write(questionID, text))))
        } catch {
          await send(.writeResponse(.failure(error)))
        }
      }

    case let .writeResponse(.success(answer)):
      state.isSubmitting = false
      return .send(.delegate(.posted(answer)))

    case let .writeResponse(.failure(error)):
      state.isSubmitting = false
      state.errorMessage = error.message
      return .none

    case .delegate:
      return .none
    }
  }
}
