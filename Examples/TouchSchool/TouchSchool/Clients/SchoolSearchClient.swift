import Cascade
import Foundation

/// Looks up the schools of one level in the school directory. The main screen asks for the
/// three levels at once and merges them (``School/merged(_:)``).
public struct SchoolSearchClient: Sendable {
  public var schools: @Sendable (School.Level) async throws(SchoolSearchError) -> [School]

  public init(
    schools: @escaping @Sendable (School.Level) async throws(SchoolSearchError) -> [School]
  ) {
    self.schools = schools
  }
}

extension SchoolSearchClient {
  /// Reads `<level>.json` (`elementary.json`, `middle.json`, `high.json`) from `directory`, or
  /// the lists shipped with the app. A missing file, a file that is not a directory answer, or
  /// an entry filed under the wrong level fails with a ``SchoolSearchError`` naming the problem.
  ///
  /// ```swift
  /// let high = try await SchoolSearchClient.live().schools(.high)
  /// ```
  public static func live(directory: URL? = nil) -> Self {
    SchoolSearchClient { level throws(SchoolSearchError) -> [School] in
      let name = "\(level.rawValue).json"
      guard
        let url = directory?.appendingPathComponent(name)
          ?? Bundle.module.url(forResource: level.rawValue, withExtension: "json")
      else { throw .unavailable("the \(level) list is not shipped") }
      guard let data = try? Data(contentsOf: url) else {
        throw .unavailable("cannot read \(name)")
      }
      guard let dto = try? JSONDecoder().decode(SchoolListDTO.self, from: data) else {
        throw .malformed("\(name) is not a school list")
      }
      var schools: [School] = []
      for entry in dto.dataSearch.content {
        schools.append(try School(dto: entry, level: level))
      }
      return schools
    }
  }
}

extension SchoolSearchClient: DependencyKey {
  public static let liveValue = SchoolSearchClient.live()
  public static let testValue = SchoolSearchClient { level throws(SchoolSearchError) in
    reportUnimplemented("SchoolSearchClient.schools")
    throw .unavailable("unimplemented")
  }
}

extension DependencyValues {
  /// The school directory; see ``SchoolSearchClient``.
  public var schoolSearch: SchoolSearchClient {
    get { self[SchoolSearchClient.self] }
    set { self[SchoolSearchClient.self] = newValue }
  }
}
