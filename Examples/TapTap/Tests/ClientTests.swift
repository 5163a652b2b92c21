import Cascade
import CascadeExampleSupport
import CascadeExampleTapTap
import CascadeTesting
import Foundation
import Testing

@Suite struct AppVersionTests {
  @Test func comparesRealVersionStrings() {
    func v(_ text: String) -> AppVersion { AppVersion(text)! }
    #expect(v("1.10.0") > v("1.9.3"))
    #expect(v("2.0") > v("1.99.99"))
    #expect(v("1.2") == v("1.2.0"))
    #expect(v("1.2.0.0") == v("1.2"))
    #expect(v("2.0.0-beta.2") < v("2.0.0"))
    #expect(v("2.0.0-beta.2") < v("2.0.0-beta.10"))
    #expect(v("2.0.0-alpha") < v("2.0.0-beta"))
    #expect(v("2.0.0-beta") < v("2.0.0-beta.1"))
    #expect(v("v2.1") == v("2.1.0"))
    #expect(v("2.1.0 (45)") == v("2.1.0"))
    #expect(v("2.1.0+build.7") == v("2.1.0"))
    #expect(v(" 3.0 ").description == "3.0")
  }

  @Test func rejectsWhatIsNotAVersion() {
    for text in ["", "abc", "1..2", "1.2-", "1.x", "-1.0", "1.2.3-beta..1"] {
      #expect(AppVersion(text) == nil, "\(text) is not a version")
    }
  }
}

@Suite struct AppVersionClientTests {
  private func directory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "taptap-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func readsTheShippedLookupResponse() async throws {
    let client = AppVersionClient.live(currentVersion: AppVersion("2.0")!)
    let release = try await client.latestRelease()
    #expect(release.version == AppVersion("2.1.0"))
    #expect(release.storeURL.absoluteString == "https://apps.apple.com/app/taptap/id6470000000")
  }

  @Test func aMissingCorruptOrMalformedLookupIsATypedError() async {
    let folder = directory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let corrupt = folder.appendingPathComponent("corrupt.json")
    try? Data("{ nope".utf8).write(to: corrupt)
    let badVersion = folder.appendingPathComponent("bad-version.json")
    try? Data(
      #"{"resultCount":1,"results":[{"version":"soon","trackViewUrl":"https://a.b"}]}"#.utf8
    )
    .write(to: badVersion)
    let empty = folder.appendingPathComponent("empty.json")
    try? Data(#"{"resultCount":0,"results":[]}"#.utf8).write(to: empty)

    func check(_ file: URL) async -> VersionCheckError? {
      do {
        _ = try await AppVersionClient.live(currentVersion: AppVersion("1")!, lookupFile: file)
          .latestRelease()
        return nil
      } catch {
        return error
      }
    }
    #expect(
      await check(folder.appendingPathComponent("missing.json"))
        == .unreachable("cannot read missing.json"))
    #expect(await check(corrupt) == .malformed("corrupt.json is not a lookup response"))
    #expect(await check(badVersion) == .malformed("'soon' is not a version"))
    #expect(await check(empty) == .notFound)
  }
}

@Suite struct SettingsClientTests {
  @Test func aSettingsFileKeepsValuesAcrossLaunches() {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "taptap-settings-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("settings.json")
    let first = SettingsClient.file(file)
    #expect(!first.hasCompletedOnboarding())
    first.setHasCompletedOnboarding(true)
    first.setTapCount(12)
    let second = SettingsClient.file(file)  // a new launch
    #expect(second.hasCompletedOnboarding())
    #expect(second.tapCount() == 12)
  }

  @Test func aCorruptSettingsFileIsKeptAsideReportedAndDefaultsAreUsed() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "taptap-settings-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("settings.json")
    try Data("garbage".utf8).write(to: file)
    let client = SettingsClient.file(file)
    #expect(client.tapCount() == 0)
    #expect(client.problem()?.contains("could not be read") == true)
    client.setTapCount(3)
    #expect(SettingsClient.file(file).tapCount() == 3)
    #expect(SettingsClient.file(file).problem() == nil)
    // The unreadable file was kept, not overwritten by the write.
    let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasPrefix("settings.unreadable-") }
    #expect(kept.count == 1)
    #expect(try Data(contentsOf: folder.appendingPathComponent(kept[0])) == Data("garbage".utf8))
  }

  @Test func aCorruptSettingsFileThatCannotBeMovedAsideIsNeverOverwritten() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "taptap-settings-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("settings.json")
    try Data("garbage".utf8).write(to: file)
    let client = SettingsClient.file(
      file, moveAside: { _ in .failure(FileRescue.Failure(reason: "File exists")) })
    #expect(client.tapCount() == 0)
    #expect(client.problem()?.contains("could not be moved aside (File exists)") == true)
    client.setTapCount(3)
    #expect(client.tapCount() == 3)  // kept for this run
    #expect(try Data(contentsOf: file) == Data("garbage".utf8))
  }

  @Test func aSecondCorruptSettingsFileKeepsTheFirstOnesRescuedCopy() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "taptap-settings-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("settings.json")
    for text in ["first", "second"] {
      try Data(text.utf8).write(to: file)
      #expect(SettingsClient.file(file).problem()?.contains("could not be read") == true)
    }
    let first = folder.appendingPathComponent("settings.unreadable-1.json")
    let second = folder.appendingPathComponent("settings.unreadable-2.json")
    #expect(try Data(contentsOf: first) == Data("first".utf8))
    #expect(try Data(contentsOf: second) == Data("second".utf8))
  }

  @Test func userDefaultsSettingsInASuiteOfTheirOwn() {
    let suite = "taptap-tests-\(UUID().uuidString)"
    let defaults = UserDefaults(suiteName: suite)!
    defer { defaults.removePersistentDomain(forName: suite) }
    let client = SettingsClient.userDefaults(defaults)
    client.setHasCompletedOnboarding(true)
    client.setTapCount(4)
    #expect(SettingsClient.userDefaults(UserDefaults(suiteName: suite)!).tapCount() == 4)
    #expect(client.hasCompletedOnboarding())
  }

  @MainActor
  @Test func theScriptedScenarioPasses() async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "taptap-scenario-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let failures = await TapTapScenario(
      dataDirectory: folder, clock: ImmediateClock(), print: { _ in }
    )
    .run()
    #expect(failures.isEmpty)
  }
}
