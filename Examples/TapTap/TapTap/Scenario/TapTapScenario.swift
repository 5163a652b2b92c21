import Cascade
import CascadeExampleSupport
import Foundation

/// TapTap's scripted scenario, run offline against real files in `dataDirectory`: a first
/// launch through onboarding to home, a second launch straight to home with the count kept,
/// an outdated version that must update, and a store that cannot be read.
@MainActor
public final class TapTapScenario {
  private let print: ScenarioPrinter
  private let recorder: Recorder<AppFeature.State, AppFeature.Action>?
  private let dataDirectory: URL
  private let clock: any Clock<Duration>
  private let checks: ScenarioChecks

  /// - Parameters:
  ///   - clock: The clock the splash waits on (real time for the executable).
  ///   - recorder: Records the first launch's session (`--record`).
  public init(
    dataDirectory: URL, clock: any Clock<Duration> = ContinuousClock(),
    recorder: Recorder<AppFeature.State, AppFeature.Action>? = nil,
    print: @escaping ScenarioPrinter
  ) {
    self.recorder = recorder
    self.dataDirectory = dataDirectory
    self.clock = clock
    self.print = print
    self.checks = ScenarioChecks(print: print)
  }

  /// Runs the scenario; returns the expectations that failed (none when it passed).
  public func run() async -> [String] {
    let settingsFile = dataDirectory.appendingPathComponent("settings.json")
    try? FileManager.default.removeItem(at: settingsFile)

    print("— First launch (version 2.1.0, the store has 2.1.0)")
    var store = launch(version: "2.1.0", recorder: recorder)
    await send(.onAppear, to: store)
    checks.expect(store.onboarding?.currentPage == 0, "a first launch shows onboarding")
    await send(.onboarding(.nextButtonTapped), to: store)
    await send(.onboarding(.nextButtonTapped), to: store)
    await send(.onboarding(.startButtonTapped), to: store)
    checks.expect(store.home == HomeFeature.State(count: 0), "finishing onboarding opens home")
    for _ in 0..<3 { await send(.home(.tapButtonTapped), to: store) }
    checks.expect(store.home?.count == 3, "three taps count three")

    print("— Second launch")
    store = launch(version: "2.1.0")
    await send(.onAppear, to: store)
    checks.expect(store.home?.count == 3, "a second launch goes straight home, count kept")

    print("— Launch of an outdated version (2.0.5)")
    let opened = Locked<[URL]>([])
    store = launch(version: "2.0.5", opened: { url in opened.withLock { $0.append(url) } })
    await send(.onAppear, to: store)
    checks.expect(store.alert?.title == "Update required", "an outdated version must update")
    if let update = store.alert?.buttons.first {
      await send(.alert(.tapped(update)), to: store)
    }
    checks.expect(store.alert == nil, "the alert goes away when Update is tapped")
    checks.expect(
      opened.withLock { $0 }.map(\.absoluteString)
        == ["https://apps.apple.com/app/taptap/id6470000000"],
      "Update opens the store page")

    print("— Launch with an unreadable store answer")
    let corrupt = dataDirectory.appendingPathComponent("lookup-corrupt.json")
    try? Data("{ not json".utf8).write(to: corrupt)
    store = launch(version: "2.1.0", lookup: corrupt)
    await send(.onAppear, to: store)
    checks.expect(store.home?.count == 3, "a failed check does not block the user")
    checks.expect(
      store.versionCheckNote?.contains("could not be read") == true, "the failure is reported")
    return checks.failures
  }

  private func launch(
    version: String, lookup: URL? = nil, opened: @escaping @Sendable (URL) -> Void = { _ in },
    recorder: Recorder<AppFeature.State, AppFeature.Action>? = nil
  ) -> StoreOf<AppFeature> {
    let (dataDirectory, print, clock) = (self.dataDirectory, self.print, self.clock)
    return Store(initialState: AppFeature.State()) {
      AppFeature(splashDuration: .milliseconds(30))
        .printChanges(to: .closure { entry in MainActor.assumeIsolated { print(entry) } })
        .record(into: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.settings = .file(dataDirectory.appendingPathComponent("settings.json"))
      $0.appVersion = .live(
        currentVersion: AppVersion(version)!, lookupFile: lookup, opened: opened)
    }
  }

  private func send(_ action: AppFeature.Action, to store: StoreOf<AppFeature>) async {
    await store.send(action).finish()
    print("  ⇒ \(TapTapScenario.describe(store.state))")
  }

  /// One line describing what the user sees.
  public static func describe(_ state: AppFeature.State) -> String {
    var text: String
    switch state.launch {
    case .splash:
      text = "screen: splash"
    case let .onboarding(onboarding):
      let page = onboarding.pages[onboarding.currentPage]
      text =
        "screen: onboarding \(onboarding.currentPage + 1)/\(onboarding.pages.count) \"\(page.title)\""
    case let .home(home):
      text = "screen: home, \(home.count) tap\(home.count == 1 ? "" : "s")"
    }
    if let alert = state.alert { text += " | \(alert)" }
    if let note = state.versionCheckNote { text += " | note: \(note)" }
    if let note = state.settingsNote { text += " | note: \(note)" }
    return text
  }
}
