import Cascade
import CascadeExampleSupport
import CascadeExampleTapTap
import CascadeTesting
import Foundation
import Testing

/// Random launches through a real store on a test clock, with in-memory settings and a store
/// lookup that answers, in turn, "up to date", "update required" and "unreachable": the app
/// appearing again, the splash finishing early, version checks arriving late or twice, the
/// update alert tapped or dismissed, onboarding paged, skipped or started, taps and resets on
/// home, and actions for screens not shown. After every step: the launch state is one the app
/// can be in, the alert shows only an update that is required, and the onboarding flag and the
/// tap count saved (in an in-memory settings client; the file client has tests of its own)
/// match what the screens show.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct TapTapFuzzTests {
  static let seeds: [UInt64] = [1, 4, 9, 16]
  /// A fifth under ThreadSanitizer, whose run is several times slower: enough steps to reach
  /// every screen and effect it checks for races; the plain run keeps the whole budget.
  /// `.ci/run` sets `CASCADE_THREAD_SANITIZER=1` for its ThreadSanitizer pass.
  static let stepsPerSeed = underThreadSanitizer ? 500 : 2_500
  static let current = AppVersion("2.1.0")!

  @Test func randomLaunchesStayInLegalStates() async {
    // This fuzzer found that a second launch check (the app appearing again, or a late
    // response) reopened home from settings a tap's save had not reached yet, losing a tap
    // (.onboarding(.skipButtonTapped) after a failed check, .onAppear, two taps as the new
    // check lands). AppFeature now keeps an open app open.
    let result = await Self.fuzzer().run(seeds: Self.seeds)
    #expect(result.actionCount == Self.seeds.count * Self.stepsPerSeed || !result.passed)
  }

  /// The fuzzer above; `plantedBug` runs it on a mutated feature (see ExplorationTests).
  static func fuzzer(
    plantedBug: TapTapPlantedBug = .none
  ) -> Fuzzer<AppFeature.State, AppFeature.Action, Device> {
    Fuzzer<AppFeature.State, AppFeature.Action, Device>(steps: Self.stepsPerSeed) {
      Device.start(plantedBug: plantedBug)
    } action: { state, _, random in
      Self.randomAction(state, using: &random)
    } settle: { _, device in
      await device.settle()
    } allowsWarning: { message in
      ["child state was nil", "while nothing was presented"].contains { message.contains($0) }
    } invariant: { step, device in
      device.problem(step)
    }
  }

  static let releases = [
    StoreRelease(version: AppVersion("3.0.0")!, storeURL: URL(string: "https://store/taptap")!),
    StoreRelease(version: AppVersion("2.1.0")!, storeURL: URL(string: "https://store/taptap")!),
  ]

  static func randomAction(
    _ state: AppFeature.State, using random: inout SeededGenerator
  ) -> AppFeature.Action {
    switch Int.random(in: 0..<20, using: &random) {
    case 0, 1: return .onAppear
    case 2: return .splashFinished
    case 3: return .versionChecked(.updateRequired(releases[0]))
    case 4: return .versionChecked(.upToDate)
    case 5: return .versionChecked(.failed(.unreachable("injected")))
    case 6: return .alert(.presented(.updateButtonTapped))
    case 7: return .alert(.dismiss)
    case 8, 9: return .onboarding(.nextButtonTapped)
    case 10: return .onboarding(.skipButtonTapped)
    case 11: return .onboarding(.startButtonTapped)
    case 12: return .home(.resetButtonTapped)
    default: return .home(.tapButtonTapped)
    }
  }
}

/// One launch's device: the clock, the settings on disk, the store lookup, the pages opened.
@MainActor
final class Device {
  let clock = TestClock()
  let settings = SettingsClient.inMemory()
  let lookups = Locked(0)
  let opened = Locked(0)
  var store: StoreOf<AppFeature>?

  static func start(
    plantedBug: TapTapPlantedBug = .none
  ) -> FuzzSubject<AppFeature.State, AppFeature.Action, Device> {
    let device = Device()
    let store = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = device.clock
      $0.settings = device.settings
      $0.appVersion = device.appVersion
      $0.tapTapPlantedBug = plantedBug
    }
    device.store = store
    return FuzzSubject(store: store, context: device)
  }

  /// Answers "up to date", "update required" and "unreachable", in turn.
  var appVersion: AppVersionClient {
    let (lookups, opened) = (lookups, opened)
    let (current, releases) = (TapTapFuzzTests.current, TapTapFuzzTests.releases)
    return AppVersionClient(
      currentVersion: { current },
      latestRelease: { () async throws(VersionCheckError) -> StoreRelease in
        let call = lookups.withLock { count in
          count += 1
          return count
        }
        switch call % 3 {
        case 0: return releases[1]
        case 1: return releases[0]
        default: throw .unreachable("offline")
        }
      },
      openStore: { _ in opened.withLock { $0 += 1 } })
  }

  /// Half a second passes; then the settings writes on their way land.
  func settle() async {
    for _ in 0..<8 { await Task.yield() }
    await clock.advance(by: .milliseconds(500))
    for _ in 0..<10_000 {
      guard let state = store?.state, !isSaved(state) else { break }
      await Task.yield()
    }
  }

  /// Whether the settings match the screen: onboarding done once home shows (this device
  /// starts without it), and the count shown is the count saved.
  func isSaved(_ state: AppFeature.State) -> Bool {
    guard let home = state.home else { return true }
    return settings.hasCompletedOnboarding() && settings.tapCount() == home.count
  }

  func problem(_ step: FuzzStep<AppFeature.State, AppFeature.Action>) -> String? {
    let state = step.after
    if state.home != nil && !settings.hasCompletedOnboarding() {
      return "home shows, but the onboarding is not saved as done"
    }
    if let home = state.home, settings.tapCount() != home.count {
      return "home shows \(home.count) taps, saved: \(settings.tapCount()) taps"
    }
    if case .onboarding(let onboarding) = state.launch {
      if settings.hasCompletedOnboarding() { return "onboarding again after it was completed" }
      if !onboarding.pages.indices.contains(onboarding.currentPage) {
        return "onboarding on page \(onboarding.currentPage) of \(onboarding.pages.count)"
      }
    }
    if state.home.map({ $0.count < 0 }) == true { return "a negative count" }
    if let alert = state.alert, !"\(alert)".contains("3.0.0") {
      return "an update alert for a version that is not newer: \(alert)"
    }
    if step.before.home != nil && state.home == nil { return "home left for \(state.launch)" }
    return nil
  }
}

/// Whether this run is the ThreadSanitizer pass of `.ci/run` (`.ci/repeat-tests.sh` too), which
/// says so in the environment: `CASCADE_THREAD_SANITIZER=1 swift test --sanitize=thread`.
private let underThreadSanitizer =
  ProcessInfo.processInfo.environment["CASCADE_THREAD_SANITIZER"] == "1"
