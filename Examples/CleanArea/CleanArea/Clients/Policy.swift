import Foundation

/// A public policy, as the app shows it.
public struct Policy: Identifiable, Equatable, Sendable {
  public let id: Int
  public var title: String
  public var category: String
  public var summary: String
  public var eligibility: String
  public var start: Date
  public var end: Date
  public var source: String
  public var relatedIDs: [Int]

  public init(
    id: Int, title: String, category: String, summary: String = "", eligibility: String = "",
    start: Date = Date(timeIntervalSince1970: 0), end: Date = Date(timeIntervalSince1970: 0),
    source: String = "", relatedIDs: [Int] = []
  ) {
    self.id = id
    self.title = title
    self.category = category
    self.summary = summary
    self.eligibility = eligibility
    self.start = start
    self.end = end
    self.source = source
    self.relatedIDs = relatedIDs
  }
}

/// A policy as the data file has it.
struct PolicyDTO: Codable, Sendable {
  struct Period: Codable, Sendable {
    let start: String
    let end: String
  }
  let id: Int
  let title: String
  let category: String
  let summary: String
  let eligibility: String
  let period: Period
  let source: String
  let relatedIds: [Int]
}

extension Policy {
  /// The one mapping from the data's shape.
  init(dto: PolicyDTO) throws(PolicyLoadError) {
    guard let start = Policy.day(dto.period.start), let end = Policy.day(dto.period.end) else {
      throw .malformed("policy \(dto.id) has an unreadable period")
    }
    guard start <= end else { throw .malformed("policy \(dto.id) ends before it starts") }
    self.init(
      id: dto.id, title: dto.title, category: dto.category, summary: dto.summary,
      eligibility: dto.eligibility, start: start, end: end, source: dto.source,
      relatedIDs: dto.relatedIds)
  }

  static func day(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "Asia/Seoul")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.date(from: text)
  }
}

/// Why the policies could not be loaded; shown as an error screen with a retry.
public enum PolicyLoadError: Error, Equatable, Sendable, CustomStringConvertible {
  case unavailable(String)
  case malformed(String)

  public var description: String {
    switch self {
    case .unavailable(let reason): "The policies are unavailable: \(reason)."
    case .malformed(let reason): "The policies could not be read: \(reason)."
    }
  }
}
