import Foundation

/// The store's lookup response, as the wire sends it.
struct StoreLookupDTO: Decodable {
  struct Result: Decodable {
    let trackName: String?
    let version: String
    let releaseNotes: String?
    let trackViewUrl: String
  }
  let resultCount: Int
  let results: [Result]
}

/// What the app needs from a lookup: the latest version and where to get it.
public struct StoreRelease: Equatable, Sendable {
  public let version: AppVersion
  public let storeURL: URL
  public let releaseNotes: String?

  public init(version: AppVersion, storeURL: URL, releaseNotes: String? = nil) {
    self.version = version
    self.storeURL = storeURL
    self.releaseNotes = releaseNotes
  }
}

extension StoreRelease {
  /// The one mapping from the wire format.
  init(dto: StoreLookupDTO) throws(VersionCheckError) {
    guard let result = dto.results.first else { throw .notFound }
    guard let version = AppVersion(result.version) else {
      throw .malformed("'\(result.version)' is not a version")
    }
    guard let url = URL(string: result.trackViewUrl) else {
      throw .malformed("'\(result.trackViewUrl)' is not a URL")
    }
    self.init(version: version, storeURL: url, releaseNotes: result.releaseNotes)
  }
}

/// Why a version check failed; the app then goes on as if no update were needed.
public enum VersionCheckError: Error, Equatable, Sendable, CustomStringConvertible {
  case unreachable(String)
  case malformed(String)
  case notFound

  public var description: String {
    switch self {
    case let .unreachable(reason): "the store could not be reached (\(reason))"
    case let .malformed(reason): "the store's answer could not be read (\(reason))"
    case .notFound: "the store does not list this app"
    }
  }
}
