import Cascade
import Foundation

/// Checks the store for a newer version and opens the store page.
public struct AppVersionClient: Sendable {
  /// The version running now.
  public var currentVersion: @Sendable () -> AppVersion
  /// The latest release the store lists.
  public var latestRelease: @Sendable () async throws(VersionCheckError) -> StoreRelease
  /// Opens the store page of the app.
  public var openStore: @Sendable (URL) async -> Void

  public init(
    currentVersion: @escaping @Sendable () -> AppVersion,
    latestRelease: @escaping @Sendable () async throws(VersionCheckError) -> StoreRelease,
    openStore: @escaping @Sendable (URL) async -> Void
  ) {
    self.currentVersion = currentVersion
    self.latestRelease = latestRelease
    self.openStore = openStore
  }
}

extension AppVersionClient {
  /// Reads a store lookup response from `lookupFile` (the shipped one by default): the offline
  /// stand-in for the store's lookup endpoint. `opened` hears every store page opened.
  public static func live(
    currentVersion: AppVersion,
    lookupFile: URL? = nil,
    opened: @escaping @Sendable (URL) -> Void = { _ in }
  ) -> Self {
    AppVersionClient(
      currentVersion: { currentVersion },
      latestRelease: { () async throws(VersionCheckError) -> StoreRelease in
        guard
          let file = lookupFile
            ?? Bundle.module.url(forResource: "store-lookup", withExtension: "json")
        else { throw .unreachable("no lookup response is shipped") }
        let data: Data
        do {
          data = try Data(contentsOf: file)
        } catch {
          throw .unreachable("cannot read \(file.lastPathComponent)")
        }
        let dto: StoreLookupDTO
        do {
          dto = try JSONDecoder().decode(StoreLookupDTO.self, from: data)
        } catch {
          throw .malformed("\(file.lastPathComponent) is not a lookup response")
        }
        return try StoreRelease(dto: dto)
      },
      openStore: { url in opened(url) })
  }
}

extension AppVersionClient: DependencyKey {
  public static let liveValue = AppVersionClient.live(currentVersion: AppVersion("2.1.0")!)
  public static let testValue = AppVersionClient(
    currentVersion: unimplemented("AppVersionClient.currentVersion", placeholder: AppVersion("0")!),
    latestRelease: { () async throws(VersionCheckError) -> StoreRelease in
      reportUnimplemented("AppVersionClient.latestRelease")
      throw .unreachable("unimplemented")
    },
    openStore: { _ in reportUnimplemented("AppVersionClient.openStore") })
  public static let previewValue = AppVersionClient.live(currentVersion: AppVersion("2.1.0")!)
}

extension DependencyValues {
  public var appVersion: AppVersionClient {
    get { self[AppVersionClient.self] }
    set { self[AppVersionClient.self] = newValue }
  }
}
