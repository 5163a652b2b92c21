import Foundation

/// A page of answers, exactly as the API sends it.
public struct AnswersOfQuestionDTO: Codable, Sendable {
  public let total: Int
  public let size: Int
  public let content: [Content]
  public let numberOfElements: Int
  public let threshold: String?
  public let hasNext: Bool

  public struct Content: Codable, Hashable, Sendable {
    public let answerId: Int
    public let writerId: Int
    public let profileImage: String?
    public let nickname: String
    public let content: String
    public let isMine: Bool
    public let isReported: Bool
    public let isLiked: Bool
    public let writeAt: String
  }
}

/// The nickname the API sends for an author who left.
public let unknownAuthorNickname = "알 수 없음"

extension AnswersOfQuestionDTO {
  /// The one mapping from the wire format. An item whose date does not parse is reported, not
  /// shown; the rest of the page is unaffected.
  public func toEntity() -> AnswerPage {
    var answers: [Answer] = []
    var unreadable: [AnswerMappingError] = []
    for item in content {
      guard let date = Date(iso8601: item.writeAt) else {
        unreadable.append(
          AnswerMappingError(answerID: item.answerId, reason: "'\(item.writeAt)' is not a date"))
        continue
      }
      answers.append(
        Answer(
          id: item.answerId, content: item.content, authorNickname: item.nickname,
          publishedDate: date, isReported: item.isReported, isMine: item.isMine,
          isLiked: item.isLiked, isResignedMember: item.nickname == unknownAuthorNickname))
    }
    return AnswerPage(
      answers: answers, unreadable: unreadable, threshold: threshold, hasNext: hasNext,
      total: total)
  }
}

/// Today's question, as the API sends it.
public struct QuestionDTO: Codable, Sendable {
  public let questionId: Int
  public let content: String
  public let publishedAt: String

  public func toEntity() throws(QappleError) -> Question {
    guard let date = Date(iso8601: publishedAt) else {
      throw QappleError("The question's date '\(publishedAt)' is not a date.")
    }
    return Question(id: questionId, content: content, publishedDate: date)
  }
}

extension Date {
  /// Parses ISO 8601 internet date-times, with or without fractional seconds.
  init?(iso8601 text: String) {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) {
      self = date
      return
    }
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { return nil }
    self = date
  }
}
