import Cascade
import CascadeTesting
import Foundation
import Synchronization

/// E rows: the throughput of CascadeTesting's `Explorer`, on a synchronous feature explored
/// by state, and on a feature with effects (a debounced search on a test clock), explored by
/// replaying paths; how the configurations grow with depth; the memory a stored
/// configuration takes.
enum Exploration {
  struct Row: Encodable {
    let id: String
    let name: String
    let transitions: Int
    let configurations: Int
    let seconds: Double
    let transitionsPerSecond: Double
    let configurationsByDepth: [Int]
    let bytesPerConfiguration: Int?

    enum CodingKeys: String, CodingKey {
      case id, name, transitions, configurations, seconds
      case transitionsPerSecond = "transitions_per_second"
      case configurationsByDepth = "configurations_by_depth"
      case bytesPerConfiguration = "bytes_per_configuration"
    }
  }

  /// A lamp on a 128×128 grid: move it, or switch it: 32,768 states, 5 actions each.
  struct Grid: Reducer {
    struct State: Hashable {
      var x = 0
      var y = 0
      var isOn = false
    }
    enum Action {
      case left, right, up, down, toggle
    }
    static let side = 128

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .left: state.x = max(state.x - 1, 0)
        case .right: state.x = min(state.x + 1, Self.side - 1)
        case .up: state.y = max(state.y - 1, 0)
        case .down: state.y = min(state.y + 1, Self.side - 1)
        case .toggle: state.isOn.toggle()
        }
        return .none
      }
    }
  }

  /// A search that waits 300 ms after the last keystroke, then answers on the clock.
  struct Search: Reducer {
    struct State: Hashable {
      var query = ""
      var results: [String] = []
      var searches = 0
    }
    enum Action {
      case queryChanged(String)
      case cleared
      case response(String)
    }
    enum CancelID { case search }

    @Dependency(\.continuousClock) var clock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case let .queryChanged(query):
          state.query = query
          state.results = []
          return .run { [clock] send in
            try await clock.sleep(for: .milliseconds(300))
            await send(.response(query.uppercased()))
          }
          .cancellable(id: CancelID.search, cancelInFlight: true)
        case .cleared:
          state.query = ""
          state.results = []
          return .cancel(id: CancelID.search)
        case let .response(answer):
          state.results = [answer]
          state.searches += 1
          return .none
        }
      }
    }
  }

  /// An effect that tells whether it ran as a test store's effect runs in a test: on the test's
  /// serial executor, in turn with the test (1), or on the global executor (2).
  struct Probe: Reducer {
    struct State: Equatable {}
    enum Action { case go }
    static let ranAs = Atomic<Int>(0)

    var body: some Reducer<State, Action> {
      Reduce { _, _ in
        .run { _ in
          Self.ranAs.store(_TestEffectLifetime.current != nil ? 1 : 2, ordering: .relaxed)
        }
      }
    }
  }

  /// Stops the benchmark when a test store's effects do not run on the test's serial executor:
  /// on the global executor the explorer's settling cannot tell when they are quiet, and its
  /// counts with effects change from run to run (a release build once dropped CascadeTesting's
  /// hooks, which give a store made in a test that executor).
  @MainActor
  static func checkEffectsRunInTurn() async {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    await store.send(.go)
    await store.finish()
    guard Probe.ranAs.load(ordering: .relaxed) == 1 else {
      FileHandle.standardError.write(
        Data(
          """
          cascade-benchmark: a test store's effect ran on the global executor, not on the \
          test's serial executor: the explorer's rows with effects would not be deterministic.

          """.utf8))
      exit(1)
    }
  }

  @MainActor
  static func rows() async -> [Row] {
    await checkEffectsRunInTurn()
    let grid = Explorer<Grid.State, Grid.Action, Void>(
      depth: 2 * Grid.side + 2, key: .state, stateHoldsEverything: true
    ) {
      ExplorationSubject(store: TestStore(initialState: Grid.State()) { Grid() })
    } actions: { _, _ in
      [.left, .right, .up, .down, .toggle]
    } invariant: { state, _ in
      state.x < Grid.side && state.y < Grid.side ? nil : "off the grid"
    }
    let search = Explorer<Search.State, Search.Action, Void>(depth: 7, key: .state) {
      let clock = TestClock()
      let store = TestStore(initialState: Search.State()) {
        Search()
      } withDependencies: {
        $0.continuousClock = clock
      }
      return ExplorationSubject(store: store, clock: clock)
    } actions: { state, _ in
      [.queryChanged(state.query + "a"), .queryChanged(state.query + "b"), .cleared]
    } invariant: { state, _ in
      state.results.isEmpty || state.results == [state.query.uppercased()]
        ? nil : "results \(state.results) for the query \(state.query)"
    }
    let e1 = await measured(
      "E1", "explorer: synchronous feature by state (128×128 grid, lamp)", grid)
    let e2 = await measured(
      "E2", "explorer: effects on a test clock (debounced search), by replay", search)
    return [e1, e2]
  }

  /// Runs `explorer` three times after a warm-up and keeps the median run; the memory a
  /// configuration takes is the peak resident growth during a run over its configurations.
  /// Every run must count the same configurations and transitions (the explorer is
  /// deterministic): the benchmark stops with an error when they differ.
  @MainActor
  static func measured<S, A>(_ id: String, _ name: String, _ explorer: Explorer<S, A, Void>)
    async -> Row
  {
    let warmUp = await explorer.run(reportsFailure: false)
    var runs: [ExplorationResult<S, A>] = []
    var peaks: [Int] = []
    for _ in 0..<3 {
      let before = residentBytes()
      let sampler = PeakSampler()
      let result = await explorer.run(reportsFailure: false)
      peaks.append(max(sampler.stop() - before, 0))
      runs.append(result)
    }
    let counts = ([warmUp] + runs).map { "\($0.configurations)/\($0.transitions)" }
    guard Set(counts).count == 1 else {
      FileHandle.standardError.write(
        Data(
          """
          cascade-benchmark: \(id) explored differently from run to run (configurations/\
          transitions: \(counts.joined(separator: ", "))): the explorer is not deterministic \
          in this build.

          """.utf8))
      exit(1)
    }
    let sorted = runs.sorted { $0.duration < $1.duration }
    let median = sorted[1]
    let seconds =
      Double(median.duration.components.seconds) + Double(median.duration.components.attoseconds)
      / 1e18
    return Row(
      id: id, name: name, transitions: median.transitions, configurations: median.configurations,
      seconds: seconds, transitionsPerSecond: Double(median.transitions) / seconds,
      configurationsByDepth: median.configurationsByDepth,
      bytesPerConfiguration: peaks.sorted()[1] / max(median.configurations, 1))
  }
}

/// Reads the resident size every millisecond on a thread of its own until stopped, and keeps
/// the largest.
final class PeakSampler: Sendable {
  private let peak = Atomic<Int>(0)
  private let running = Atomic<Bool>(true)
  private let done = DispatchSemaphore(value: 0)

  init() {
    peak.store(residentBytes(), ordering: .relaxed)
    let thread = Thread { [self] in
      while running.load(ordering: .relaxed) {
        let now = residentBytes()
        if now > peak.load(ordering: .relaxed) { peak.store(now, ordering: .relaxed) }
        usleep(1000)
      }
      done.signal()
    }
    thread.start()
  }

  /// Stops sampling; returns the largest resident size seen.
  func stop() -> Int {
    running.store(false, ordering: .relaxed)
    done.wait()
    return max(peak.load(ordering: .relaxed), residentBytes())
  }
}
