import Cascade
import Foundation

/// Loads the list of policies.
public struct PolicyClient: Sendable {
  public var load: @Sendable () async throws(PolicyLoadError) -> [Policy]

  public init(load: @escaping @Sendable () async throws(PolicyLoadError) -> [Policy]) {
    self.load = load
  }
}

extension PolicyClient {
  /// Reads `file`, or the shipped data set.
  public static func live(file: URL? = nil) -> Self {
    PolicyClient { () async throws(PolicyLoadError) -> [Policy] in
      guard let url = file ?? Bundle.module.url(forResource: "policies", withExtension: "json")
      else { throw .unavailable("no data set is shipped") }
      guard let data = try? Data(contentsOf: url) else {
        throw .unavailable("cannot read \(url.lastPathComponent)")
      }
      guard let dtos = try? JSONDecoder().decode([PolicyDTO].self, from: data) else {
        throw .malformed("\(url.lastPathComponent) is not a list of policies")
      }
      var policies: [Policy] = []
      for dto in dtos { policies.append(try Policy(dto: dto)) }
      return policies
    }
  }
}

extension PolicyClient: DependencyKey {
  public static let liveValue = PolicyClient.live()
  public static let testValue = PolicyClient { () async throws(PolicyLoadError) -> [Policy] in
    reportUnimplemented("PolicyClient.load")
    throw .unavailable("unimplemented")
  }
}

extension DependencyValues {
  public var policies: PolicyClient {
    get { self[PolicyClient.self] }
    set { self[PolicyClient.self] = newValue }
  }
}
