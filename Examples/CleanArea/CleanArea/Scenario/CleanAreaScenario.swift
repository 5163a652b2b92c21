import Cascade
import CascadeExampleSupport
import Foundation

/// CleanArea's scripted scenario, offline, with bookmarks kept in a real file in
/// `dataDirectory`: load, browse by category, open details from every tab, go two levels deep,
/// back, pop to main, bookmark, relaunch and find the bookmark, then a broken data file that
/// shows an error and recovers on retry. The whole stack is printed after every step.
@MainActor
public final class CleanAreaScenario {
  private let print: ScenarioPrinter
  private let dataDirectory: URL
  private let checks: ScenarioChecks
  private let recorder: Recorder<StartFeature.State, StartFeature.Action>?

  /// - Parameter recorder: Records the first launch's session (`--record`).
  public init(
    dataDirectory: URL, recorder: Recorder<StartFeature.State, StartFeature.Action>? = nil,
    print: @escaping ScenarioPrinter
  ) {
    self.recorder = recorder
    self.dataDirectory = dataDirectory
    self.print = print
    self.checks = ScenarioChecks(print: print)
  }

  private var bookmarksFile: URL { dataDirectory.appendingPathComponent("bookmarks.json") }

  /// Runs the scenario; returns the expectations that failed (none when it passed).
  public func run() async -> [String] {
    try? FileManager.default.removeItem(at: bookmarksFile)

    print("— Launch")
    let store = launch(recorder: recorder)
    await send(.onAppear, to: store)
    await checks.waitUntil("the policies load and the main screen is pushed", store) {
      $0.path.count == 1
    }
    guard let mainID = store.path.ids.first, case .main(let main)? = store.path.first else {
      return checks.failures + ["no main screen"]
    }
    checks.expect(main.policies.count == 42, "42 policies are listed")
    await send(.path(.element(id: mainID, action: .main(.onAppear))), to: store)
    await browse(store, mainID)
    await bookmarkAndSearch(store, mainID)
    await relaunch()
    await recoverFromABrokenDataFile()
    return checks.failures
  }

  private func browse(_ store: StoreOf<StartFeature>, _ mainID: StackElementID) async {
    print("— The categories tab, then a policy in it")
    await send(.path(.element(id: mainID, action: .main(.categorySelected("Housing")))), to: store)
    checks.expect(visible(store) == [1, 2, 3, 4, 5], "Housing lists its five policies")
    await send(.path(.element(id: mainID, action: .main(.policyTapped(3)))), to: store)
    checks.expect(
      stack(store) == ["main", "detail 3"], "a policy in a tab pushes its detail on the root stack")

    print("— Two levels deep through related policies, back, then home")
    await send(
      .path(.element(id: store.path.ids[1], action: .detail(.relatedTapped(1)))), to: store)
    await send(
      .path(.element(id: store.path.ids[2], action: .detail(.relatedTapped(2)))), to: store)
    checks.expect(
      stack(store) == ["main", "detail 3", "detail 1", "detail 2"], "details push details")
    await send(.path(.element(id: store.path.ids[3], action: .detail(.backTapped))), to: store)
    checks.expect(
      stack(store) == ["main", "detail 3", "detail 1"], "back dismisses the top screen only")
    await send(.path(.element(id: store.path.ids[2], action: .detail(.homeTapped))), to: store)
    checks.expect(stack(store) == ["main"], "home pops every detail at once")
  }

  private func bookmarkAndSearch(_ store: StoreOf<StartFeature>, _ mainID: StackElementID) async {
    print("— Bookmark from a detail opened in the all tab")
    await send(.path(.element(id: mainID, action: .main(.tabSelected(.all)))), to: store)
    await send(.path(.element(id: mainID, action: .main(.policyTapped(17)))), to: store)
    let detailID = store.path.ids.last!
    await send(.path(.element(id: detailID, action: .detail(.onAppear))), to: store)
    await send(.path(.element(id: detailID, action: .detail(.bookmarkTapped))), to: store)
    await checks.waitUntil("the detail shows the bookmark", store) {
      if case .detail(let detail)? = $0.path.last { detail.isBookmarked } else { false }
    }
    await checks.waitUntil("the bookmarks tab hears of it", store) {
      if case .main(let main)? = $0.path.first { main.bookmarks == [17] } else { false }
    }
    await send(.path(.element(id: detailID, action: .detail(.backTapped))), to: store)
    await send(.path(.element(id: mainID, action: .main(.tabSelected(.bookmarks)))), to: store)
    checks.expect(visible(store) == [17], "the bookmarks tab lists the bookmarked policy")
    await send(.path(.element(id: mainID, action: .main(.policyTapped(17)))), to: store)
    checks.expect(stack(store) == ["main", "detail 17 ★"], "the bookmarks tab opens details too")

    print("— The search tab")
    await send(.path(.element(id: store.path.ids[1], action: .detail(.backTapped))), to: store)
    await send(
      .path(.element(id: mainID, action: .main(.searchTextChanged("youth LOAN")))), to: store)
    checks.expect(visible(store) == [2], "searching 'youth LOAN' finds the youth jeonse loan")
    await send(.path(.element(id: mainID, action: .main(.policyTapped(2)))), to: store)
    checks.expect(stack(store) == ["main", "detail 2"], "the search tab opens details too")
  }

  private func relaunch() async {
    print("— Relaunch")
    let store = launch()
    await send(.onAppear, to: store)
    await checks.waitUntil("the policies load again", store) { $0.path.count == 1 }
    await send(.path(.element(id: store.path.ids[0], action: .main(.onAppear))), to: store)
    await send(
      .path(.element(id: store.path.ids[0], action: .main(.tabSelected(.bookmarks)))), to: store)
    await checks.waitUntil("the bookmark survived the relaunch", store) {
      if case .main(let main)? = $0.path.first { main.bookmarks == [17] } else { false }
    }
    print("  ⇒ \(CleanAreaScenario.describe(store.state))")
  }

  private func recoverFromABrokenDataFile() async {
    print("— Launch with a broken data file, then retry once it is fixed")
    let broken = dataDirectory.appendingPathComponent("policies.json")
    try? Data("[{\"id\": 1}]".utf8).write(to: broken)
    let store = launch(policies: broken)
    await send(.onAppear, to: store)
    await checks.waitUntil("the error screen shows", store) {
      if case .failed = $0.phase { true } else { false }
    }
    checks.expect(store.path.isEmpty, "nothing is pushed when loading fails")
    if let shipped = Bundle.module.url(forResource: "policies", withExtension: "json") {
      try? FileManager.default.removeItem(at: broken)
      try? FileManager.default.copyItem(at: shipped, to: broken)
    }
    await send(.retryTapped, to: store)
    await checks.waitUntil("retry loads the fixed file", store) { $0.path.count == 1 }
    let kept = (try? Data(contentsOf: bookmarksFile)).flatMap {
      try? JSONDecoder().decode([Int].self, from: $0)
    }
    checks.expect(kept == [17], "the failed launch lost no bookmark")
  }

  private func launch(
    policies file: URL? = nil, recorder: Recorder<StartFeature.State, StartFeature.Action>? = nil
  ) -> StoreOf<StartFeature> {
    let (print, bookmarksFile) = (self.print, self.bookmarksFile)
    return Store(initialState: StartFeature.State()) {
      StartFeature()
        .printChanges(
          to: .closure { entry in MainActor.assumeIsolated { print(entry) } }, maxElements: 2
        )
        .record(into: recorder)
    } withDependencies: {
      $0.policies = .live(file: file)
      $0.bookmarks = .live(file: bookmarksFile)
    }
  }

  private func send(_ action: StartFeature.Action, to store: StoreOf<StartFeature>) async {
    // The screens' observations run until their screen goes away: wait for the action's own
    // work, not for theirs.
    let task = store.send(action)
    if !Self.startsObservation(action) { await task.finish() }
    print("  ⇒ \(CleanAreaScenario.describe(store.state))")
  }

  private static func startsObservation(_ action: StartFeature.Action) -> Bool {
    switch action {
    case .path(.element(_, .main(.onAppear))), .path(.element(_, .detail(.onAppear))): true
    default: false
    }
  }

  private func visible(_ store: StoreOf<StartFeature>) -> [Policy.ID] {
    guard case .main(let main)? = store.path.first else { return [] }
    return main.visiblePolicies.map(\.id)
  }

  private func stack(_ store: StoreOf<StartFeature>) -> [String] {
    CleanAreaScenario.screens(store.state)
  }

  /// The stack, bottom first, one short name per screen.
  public static func screens(_ state: StartFeature.State) -> [String] {
    state.path.map { screen in
      switch screen {
      case .main:
        return "main"
      case .detail(let detail):
        return "detail \(detail.policy.id)\(detail.isBookmarked ? " ★" : "")"
      }
    }
  }

  /// One line describing what the user sees: the phase and the whole stack.
  public static func describe(_ state: StartFeature.State) -> String {
    switch state.phase {
    case .idle: return "not started"
    case .loading: return "loading policies…"
    case .failed(let message): return "error screen: \(message) [Retry]"
    case .loaded:
      let screens = state.path.map { screen -> String in
        switch screen {
        case .main(let main):
          let tab =
            switch main.selectedTab {
            case .categories: "categories/\(main.selectedCategory.map { echo($0) } ?? "-")"
            case .search: "search \"\(echo(main.searchText))\""
            default: main.selectedTab.rawValue
            }
          return
            "main(\(tab): \(main.visiblePolicies.count) shown, \(main.bookmarks.count) bookmarked)"
        case .detail(let detail):
          return
            "detail(\(detail.policy.id) \"\(detail.policy.title)\"\(detail.isBookmarked ? " ★" : ""))"
        }
      }
      return "stack: " + screens.joined(separator: " > ")
    }
  }
}
