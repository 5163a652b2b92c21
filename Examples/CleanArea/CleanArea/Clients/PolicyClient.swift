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
  /// Reads `file`, or the shipped data set. A file that is missing, not a list of policies,
  /// empty, or has a policy twice or with an unreadable period fails with a
  /// ``PolicyLoadError`` naming the problem; related ids that name no policy are ignored.
  ///
  /// ```swift
  /// let policies = try await PolicyClient.live(file: URL(fileURLWithPath: "policies.json")).load()
  /// ```
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
      guard !dtos.isEmpty else { throw .malformed("\(url.lastPathComponent) lists no policies") }
      var policies: [Policy] = []
      var ids = Set<Int>()
      for dto in dtos {
        guard ids.insert(dto.id).inserted else {
          throw .malformed("policy \(dto.id) appears twice")
        }
        policies.append(try Policy(dto: dto))
      }
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
