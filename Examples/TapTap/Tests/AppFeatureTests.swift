import Cascade
import CascadeExampleTapTap
import CascadeTesting
import Foundation
import Testing

private let release = StoreRelease(
  version: AppVersion("2.1.0")!, storeURL: URL(string: "https://apps.apple.com/app/taptap/id1")!)

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct AppFeatureTests {
  let clock = TestClock()

  func makeStore(
    current: String = "2.1.0",
    latest: @escaping @Sendable () async throws(VersionCheckError) -> StoreRelease = { release },
    settings: SettingsClient = .inMemory(),
    opened: @escaping @Sendable (URL) async -> Void = { _ in },
    initialState: AppFeature.State = AppFeature.State()
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: initialState) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.settings = settings
      $0.appVersion = AppVersionClient(
        currentVersion: { AppVersion(current)! }, latestRelease: latest, openStore: opened)
    }
  }

  @Test func aFirstLaunchWaitsForTheSplashThenShowsOnboarding() async {
    let store = makeStore()
    await store.send(.onAppear)
    await clock.advance(by: .seconds(1.55))  // the splash's 1.55 s, without waiting for them
    await store.receive(.splashFinished)
    await store.receive(.versionChecked(.upToDate)) {
      $0.launch = .onboarding(OnboardingFeature.State())
    }
    await store.finish()
  }

  @Test func unreadableSettingsAreToldToTheUserAndTheAppStartsFresh() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "taptap-app-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("settings.json")
    try Data("{\"tapCount\": ".utf8).write(to: file)
    let store = makeStore(settings: .file(file))
    await store.send(.onAppear)
    await clock.advance(by: .seconds(1.55))
    await store.receive(.splashFinished)
    await store.receive(.versionChecked(.upToDate)) {
      let kept = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      $0.settingsNote =
        "Your settings could not be read, so the app started fresh. "
        + "The old file was kept as \(kept.first { $0.hasPrefix("settings.unreadable-") } ?? "?")."
      $0.launch = .onboarding(OnboardingFeature.State())
    }
    await store.finish()
  }

  @Test func anOnboardedUserGoesStraightHomeWithTheirCount() async {
    let store = makeStore(settings: .inMemory(onboarded: true, taps: 42))
    await store.send(.onAppear)
    await clock.run()
    await store.receive(.splashFinished)
    await store.receive(.versionChecked(.upToDate)) {
      $0.launch = .home(HomeFeature.State(count: 42))
    }
    await store.finish()
  }

  @Test func finishingOnboardingGoesHomeAndIsRemembered() async {
    let settings = SettingsClient.inMemory()
    var state = AppFeature.State()
    state.launch = .onboarding(OnboardingFeature.State())
    let store = TestStore(initialState: state) {
      AppFeature()
    } withDependencies: {
      $0.settings = settings
    }
    await store.send(.onboarding(.skipButtonTapped))
    await store.receive(.onboarding(.delegate(.completed))) {
      $0.launch = .home(HomeFeature.State(count: 0))
    }
    await store.finish()
    #expect(settings.hasCompletedOnboarding())
  }

  @Test func anOutdatedVersionMustUpdateAndUpdateOpensTheStore() async {
    let opened = LockIsolated<[URL]>([])
    let store = makeStore(current: "1.9.3", opened: { url in opened.withValue { $0.append(url) } })
    await store.send(.onAppear)
    await clock.run()
    await store.receive(.splashFinished)
    await store.receive(.versionChecked(.updateRequired(release))) {
      $0.alert = AlertState {
        "Update required"
      } actions: {
        ButtonState(action: .updateButtonTapped) { "Update" }
      } message: {
        "Version 2.1.0 is available. Please update to keep using TapTap."
      }
    }
    await store.send(.alert(.presented(.updateButtonTapped))) { $0.alert = nil }
    await store.finish()
    #expect(opened.value == [release.storeURL])
    #expect(store.state.launch == .splash)  // an outdated app goes no further
  }

  @Test func aFailedCheckIsReportedAndTheAppGoesOn() async {
    let store = makeStore(
      latest: { () async throws(VersionCheckError) -> StoreRelease in throw .unreachable("offline")
      },
      settings: .inMemory(onboarded: true, taps: 1))
    await store.send(.onAppear)
    await clock.run()
    await store.receive(.splashFinished)
    await store.receive(.versionChecked(.failed(.unreachable("offline")))) {
      $0.versionCheckNote = "Could not check for updates: the store could not be reached (offline)."
      $0.launch = .home(HomeFeature.State(count: 1))
    }
  }

  @Test func theSplashEndsWithTheAppOnlyIfStillShowing() async {
    // The app is open (3 taps on screen, 1 saved): a version check arriving late, answered or
    // failed, must not open it again from the saved settings.
    var home = AppFeature.State()
    home.launch = .home(HomeFeature.State(count: 3))
    let store = makeStore(settings: .inMemory(onboarded: true, taps: 1), initialState: home)
    await store.send(.versionChecked(.upToDate))
    await store.send(.versionChecked(.failed(.unreachable("offline")))) {
      $0.versionCheckNote = "Could not check for updates: the store could not be reached (offline)."
    }
  }

  @Test func cancellingTheLaunchLeavesTheSplashCleanly() async {
    // Leaving the splash screen state mid-wait: the launch effect still finishes cleanly.
    let store = makeStore()
    let appear = await store.send(.onAppear)
    await appear.cancel()
    await clock.run()
    await store.finish()
    #expect(store.state.launch == .splash)
  }
}

@MainActor
@Suite struct OnboardingAndHomeTests {
  @Test func onboardingPagesThroughToTheEnd() async {
    let store = TestStore(initialState: OnboardingFeature.State()) { OnboardingFeature() }
    await store.send(.nextButtonTapped) { $0.currentPage = 1 }
    await store.send(.nextButtonTapped) { $0.currentPage = 2 }
    #expect(store.state.isLastPage)
    await store.send(.nextButtonTapped)  // on the last page, next finishes
    await store.receive(.delegate(.completed))
    await store.send(.startButtonTapped)
    await store.receive(.delegate(.completed))
  }

  @Test func homeCountsTapsAndKeepsThem() async {
    let settings = SettingsClient.inMemory(onboarded: true, taps: 5)
    let store = TestStore(initialState: HomeFeature.State(count: 5)) {
      HomeFeature()
    } withDependencies: {
      $0.settings = settings
    }
    await store.send(.tapButtonTapped) { $0.count = 6 }
    await store.send(.tapButtonTapped) { $0.count = 7 }
    await store.finish()
    #expect(settings.tapCount() == 7)
    await store.send(.resetButtonTapped) { $0.count = 0 }
    await store.finish()
    #expect(settings.tapCount() == 0)
  }
}

@MainActor
@Suite struct TapTapRecordingTests {
  @Test func aRecordedLaunchReplaysToTheSameState() async {
    let recorder = Recorder<AppFeature.State, AppFeature.Action>()
    let dependencies: (inout DependencyValues) -> Void = {
      $0.continuousClock = ImmediateClock()
      $0.settings = .inMemory()
      $0.appVersion = AppVersionClient(
        currentVersion: { AppVersion("2.1.0")! }, latestRelease: { release },
        openStore: { _ in })
    }
    let store = Store(initialState: AppFeature.State()) {
      AppFeature().record(into: recorder)
    } withDependencies: {
      dependencies(&$0)
    }
    await store.send(.onAppear).finish()
    await store.send(.onboarding(.nextButtonTapped)).finish()
    await store.send(.onboarding(.skipButtonTapped)).finish()
    for _ in 0..<3 { await store.send(.home(.tapButtonTapped)).finish() }
    #expect(store.state.home?.count == 3)

    // The effects' results are in the recorded actions; the reducers read the same settings.
    let recording = recorder.recording
    #expect(recording.actions.contains(.versionChecked(.upToDate)))
    let replayed = recording.replay(from: AppFeature.State(), withDependencies: dependencies) {
      AppFeature()
    }
    #expect(replayed == store.state)
  }
}
