import Foundation

/// An answer as the app shows it.
public struct Answer: Identifiable, Equatable, Sendable {
  public let id: Int
  public var content: String
  public var authorNickname: String
  public var publishedDate: Date
  public var isReported: Bool
  public var isMine: Bool
  public var isLiked: Bool
  /// The author left: the API sends a placeholder nickname for them.
  public var isResignedMember: Bool

  public init(
    id: Int, content: String, authorNickname: String, publishedDate: Date,
    isReported: Bool = false, isMine: Bool = false, isLiked: Bool = false,
    isResignedMember: Bool = false
  ) {
    self.id = id
    self.content = content
    self.authorNickname = authorNickname
    self.publishedDate = publishedDate
    self.isReported = isReported
    self.isMine = isMine
    self.isLiked = isLiked
    self.isResignedMember = isResignedMember
  }
}

/// Today's question.
public struct Question: Equatable, Sendable {
  public let id: Int
  public var content: String
  public var publishedDate: Date

  public init(id: Int, content: String, publishedDate: Date) {
    self.id = id
    self.content = content
    self.publishedDate = publishedDate
  }
}

/// One page of answers, mapped: the answers that could be read, and the items that could not.
public struct AnswerPage: Equatable, Sendable {
  public var answers: [Answer]
  /// Items of the page that could not be read (for example an unreadable date).
  public var unreadable: [AnswerMappingError]
  /// The cursor for the next page.
  public var threshold: String?
  public var hasNext: Bool
  public var total: Int

  public init(
    answers: [Answer], unreadable: [AnswerMappingError], threshold: String?, hasNext: Bool,
    total: Int
  ) {
    self.answers = answers
    self.unreadable = unreadable
    self.threshold = threshold
    self.hasNext = hasNext
    self.total = total
  }
}

/// Why one item of a page could not be shown.
public struct AnswerMappingError: Error, Equatable, Sendable, CustomStringConvertible {
  public let answerID: Int
  public let reason: String

  public init(answerID: Int, reason: String) {
    self.answerID = answerID
    self.reason = reason
  }

  public var description: String { "answer \(answerID): \(reason)" }
}

/// What went wrong talking to the server (or the local stand-in for it).
public struct QappleError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
