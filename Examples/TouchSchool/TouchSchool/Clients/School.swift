import Foundation

/// A school a student can play for: an entry of the school directory's elementary, middle or
/// high school list.
///
/// ```swift
/// let school = School(
///   id: "7130027", name: "서울고등학교", address: "서울특별시 서초구 서초동", level: .high)
/// ```
public struct School: Identifiable, Equatable, Hashable, Sendable {
  /// The school's code in the school directory (`seq`).
  public let id: String
  public var name: String
  public var address: String
  public var level: Level

  /// Which list of the directory a school is in.
  public enum Level: String, CaseIterable, Comparable, Sendable {
    case elementary, middle, high

    /// The directory's name for the level (`schoolGubun`).
    public var koreanName: String {
      switch self {
      case .elementary: "초등학교"
      case .middle: "중학교"
      case .high: "고등학교"
      }
    }

    public static func < (lhs: Level, rhs: Level) -> Bool {
      allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
  }

  public init(id: String, name: String, address: String, level: Level) {
    self.id = id
    self.name = name
    self.address = address
    self.level = level
  }
}

/// One level's list as the school directory's search API answers it:
/// `{"dataSearch": {"content": [{"seq": ..., "schoolName": ..., "adres": ..., "schoolGubun": ...}]}}`.
struct SchoolListDTO: Codable, Sendable {
  struct DataSearch: Codable, Sendable {
    let content: [Entry]
  }
  struct Entry: Codable, Sendable {
    let seq: String
    let schoolName: String
    let adres: String
    let schoolGubun: String
  }
  let dataSearch: DataSearch
}

extension School {
  /// The one mapping from the directory's shape; `level` is the list the entry came from.
  init(dto: SchoolListDTO.Entry, level: Level) throws(SchoolSearchError) {
    guard dto.schoolGubun == level.koreanName else {
      throw .malformed(
        "\(dto.schoolName) (\(dto.seq)) is a \(dto.schoolGubun) in the \(level) list")
    }
    guard !dto.seq.isEmpty, !dto.schoolName.isEmpty else {
      throw .malformed("an entry of the \(level) list has no code or no name")
    }
    self.init(id: dto.seq, name: dto.schoolName, address: dto.adres, level: level)
  }

  /// The elementary, middle and high school lists as one list, sorted by name (then code), as
  /// the school picker shows it. A code that appears twice is an error: the ranking counts
  /// touches by code.
  ///
  /// ```swift
  /// let all = try School.merged([elementary, middle, high])
  /// ```
  public static func merged(_ lists: [[School]]) throws(SchoolSearchError) -> [School] {
    var seen: [School.ID: School] = [:]
    for school in lists.joined() {
      if let other = seen[school.id] {
        throw .malformed("code \(school.id) names both \(other.name) and \(school.name)")
      }
      seen[school.id] = school
    }
    return seen.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
  }
}

/// Why the school list could not be loaded; the main screen shows it with a retry.
public enum SchoolSearchError: Error, Equatable, Sendable, CustomStringConvertible {
  case unavailable(String)
  case malformed(String)

  public var description: String {
    switch self {
    case .unavailable(let reason): "The school list is unavailable: \(reason)."
    case .malformed(let reason): "The school list could not be read: \(reason)."
    }
  }
}
