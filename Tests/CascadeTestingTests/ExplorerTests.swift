import Cascade
import CascadeTesting
import Testing

// The explorer's counts checked against enumerations written here, from the features' rules
// alone: no store, no effects, just the model of what each event does.

/// A synchronous feature: a counter modulo 3 and a flag.
private struct Dial: Reducer {
  struct State: Hashable {
    var value = 0
    var isOn = false
  }
  enum Action: Equatable, CaseIterable {
    case turn
    case flip
    case reset
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      Self.apply(action, to: &state)
      return .none
    }
  }

  /// The rule the reducer runs, for the enumeration too.
  static func apply(_ action: Action, to state: inout State) {
    switch action {
    case .turn: state.value = (state.value + 1) % 3
    case .flip: state.isOn.toggle()
    case .reset: state.value = 0
    }
  }
}

/// A feature with effects: `load` starts an effect that sends `progress`, then `loaded` with
/// the generation it started in; `bump` moves the generation on.
private struct Loader: Reducer {
  struct State: Hashable {
    var generation = 0
    var progress = 0
    var loaded: [Int] = []
  }
  enum Action: Equatable {
    case load
    case bump
    case progress
    case loaded(Int)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .load:
        return .run { [generation = state.generation] send in
          await send(.progress)
          await send(.loaded(generation))
        }
      case .bump: state.generation += 1
      case .progress: state.progress += 1
      case let .loaded(generation): state.loaded.append(generation)
      }
      return .none
    }
  }
}

/// A timer that ticks twice, a second apart, until stopped.
private struct Metronome: Reducer {
  struct State: Hashable {
    var isRunning = false
    var ticks = 0
  }
  enum Action: Equatable {
    case start
    case stop
    case tick
  }
  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        state.isRunning = true
        return .run { [clock] send in
          for _ in 0..<2 {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .stop:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

/// Two effects racing: `go` starts one that sends `a1` then `a2`, and one that sends `b`;
/// `b` then sends `echo` with the reducer's `.send`.
private struct Race: Reducer {
  struct State: Hashable {
    var started = false
    var log: [String] = []
  }
  enum Action: Equatable {
    case go
    case a1
    case a2
    case b
    case echo
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .go:
        state.started = true
        return .merge(
          .run { send in
            await send(.a1)
            await send(.a2)
          },
          .run { send in await send(.b) })
      case .a1: state.log.append("a1")
      case .a2: state.log.append("a2")
      case .b:
        state.log.append("b")
        return .send(.echo)
      case .echo: state.log.append("echo")
      }
      return .none
    }
  }

  /// Fails once `b` has arrived before `a2`.
  static func invariant(_ state: State) -> String? {
    guard let b = state.log.firstIndex(of: "b") else { return nil }
    let a2 = state.log.firstIndex(of: "a2") ?? .max
    return b < a2 ? "b arrived before a2: \(state.log)" : nil
  }
}

/// A search that waits 300 ms after the last keystroke, then answers; the buggy one forgets
/// `cancelInFlight`, so an older search's answer can land after a newer query.
private struct Search: Reducer {
  struct State: Hashable {
    var query = ""
    var results: [String] = []
  }
  enum Action: Equatable {
    case queryChanged(String)
    case cleared
    case response(String)
  }
  enum CancelID { case search }

  var isBuggy = false
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
        .cancellable(id: CancelID.search, cancelInFlight: !isBuggy)
      case .cleared:
        state.query = ""
        state.results = []
        return .cancel(id: CancelID.search)
      case let .response(answer):
        state.results = [answer]
        return .none
      }
    }
  }

  static func invariant(_ state: State) -> String? {
    state.results.isEmpty || state.results == [state.query.uppercased()]
      ? nil : "results \(state.results) for the query \(state.query)"
  }
}

/// A door with a room behind it: poking the room once the door is shut is an action for a
/// child that is gone, which Cascade warns about.
private struct Door: Reducer {
  struct State: Hashable {
    var room: Int?
  }
  enum Action: Equatable {
    case open
    case shut
    case room(Room)
    enum Room: Equatable { case poke }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open: state.room = 0
      case .shut: state.room = nil
      case .room: break
      }
      return .none
    }
    .ifLet(\.room, action: Action.room) {
      Reduce { room, _ in
        room += 1
        return .none
      }
    }
  }
}

// MARK: - Enumerations

/// Paths of up to `depth` events, and distinct states first reached at each depth, of Dial.
private func enumerateDial(depth: Int) -> (paths: [Int], states: [Int], transitions: Int) {
  var paths = [1]
  var layer = [Dial.State()]
  for _ in 0..<depth { paths.append(paths.last! * Dial.Action.allCases.count) }
  var seen: Set<Dial.State> = [Dial.State()]
  var states = [1]
  var transitions = 0
  for _ in 0..<depth {
    var next: [Dial.State] = []
    for state in layer {
      for action in Dial.Action.allCases {
        transitions += 1
        var after = state
        Dial.apply(action, to: &after)
        if seen.insert(after).inserted { next.append(after) }
      }
    }
    states.append(next.count)
    layer = next
  }
  return (paths, states, transitions)
}

/// Paths of Loader by length: two user actions always, and each effect in flight delivers its
/// next action (progress, then loaded).
private func enumerateLoaderPaths(depth: Int) -> [Int] {
  var counts = Array(repeating: 0, count: depth + 1)
  // Each effect in flight: how many of its two actions it still holds.
  func walk(_ effects: [Int], _ length: Int) {
    counts[length] += 1
    guard length < depth else { return }
    walk(effects + [2], length + 1)  // load
    walk(effects, length + 1)  // bump
    for index in effects.indices {
      var after = effects
      after[index] -= 1
      if after[index] == 0 { after.remove(at: index) }
      walk(after, length + 1)
    }
  }
  walk([], 0)
  return counts
}

/// Configurations of Loader first reached at each depth, and the transitions taken, when
/// configurations are the same when their states are, and their effects in flight are: an
/// effect is the state it started in (`load` starts the only kind), and what it still holds.
private func enumerateLoaderConfigurations(depth: Int) -> (byDepth: [Int], transitions: Int) {
  struct Effect: Hashable {
    let origin: Loader.State
    let remaining: Int
  }
  struct Configuration: Hashable {
    var state: Loader.State
    var effects: [Effect: Int]  // a multiset: identical effects are interchangeable
  }
  var seen: Set<Configuration> = [Configuration(state: Loader.State(), effects: [:])]
  var layer = Array(seen)
  var byDepth = [1]
  var transitions = 0
  for _ in 0..<depth {
    var next: [Configuration] = []
    func reach(_ configuration: Configuration) {
      transitions += 1
      if seen.insert(configuration).inserted { next.append(configuration) }
    }
    for configuration in layer {
      var loaded = configuration
      loaded.effects[Effect(origin: configuration.state, remaining: 2), default: 0] += 1
      reach(loaded)
      var bumped = configuration
      bumped.state.generation += 1
      reach(bumped)
      for (effect, count) in configuration.effects {
        for _ in 0..<count {  // each effect in flight delivers, even when it has a twin
          var delivered = configuration
          delivered.effects[effect]! -= 1
          if delivered.effects[effect] == 0 { delivered.effects[effect] = nil }
          if effect.remaining == 2 {
            delivered.state.progress += 1
            delivered.effects[Effect(origin: effect.origin, remaining: 1), default: 0] += 1
          } else {
            delivered.state.loaded.append(effect.origin.generation)
          }
          reach(delivered)
        }
      }
    }
    byDepth.append(next.count)
    layer = next
  }
  return (byDepth, transitions)
}

/// Paths of Metronome by length, with the clock: each timer sleeps until a deadline, holds the
/// ticks it sent, and is gone once stopped.
private func enumerateMetronomePaths(depth: Int) -> [Int] {
  struct Timer {
    var deadline: Int?
    var sleepsLeft: Int
    var held: Int
  }
  var counts = Array(repeating: 0, count: depth + 1)
  func walk(_ running: Bool, _ now: Int, _ timers: [Timer], _ length: Int) {
    counts[length] += 1
    guard length < depth else { return }
    if running {
      // stop: the timer is cancelled with the ticks it holds (as far as the feature can
      // tell, a timer holding ticks has not sent them: it is still there to cancel).
      walk(false, now, [], length + 1)
    } else {
      walk(true, now, timers + [Timer(deadline: now + 1, sleepsLeft: 2, held: 0)], length + 1)
    }
    for index in timers.indices where timers[index].held > 0 {
      var after = timers
      after[index].held -= 1
      if after[index].held == 0 && after[index].deadline == nil { after.remove(at: index) }
      walk(running, now, after, length + 1)
    }
    if let next = timers.compactMap(\.deadline).min() {
      var after = timers
      for index in after.indices where after[index].deadline == next {
        after[index].held += 1
        after[index].sleepsLeft -= 1
        after[index].deadline = after[index].sleepsLeft > 0 ? next + 1 : nil
      }
      walk(running, next, after, length + 1)
    }
  }
  walk(false, 0, [], 0)
  return counts
}

/// Paths of Race by length: `go` once, then effect 1 holds a1 and a2, effect 2 holds b.
private func enumerateRacePaths(depth: Int) -> [Int] {
  var counts = Array(repeating: 0, count: depth + 1)
  func walk(_ started: Bool, _ first: Int, _ second: Int, _ length: Int) {
    counts[length] += 1
    guard length < depth else { return }
    if !started { walk(true, 2, 1, length + 1) }
    if first > 0 { walk(started, first - 1, second, length + 1) }
    if second > 0 { walk(started, first, second - 1, length + 1) }
  }
  walk(false, 0, 0, 0)
  return counts
}

// MARK: - Explorers

@MainActor
private func dialExplorer(
  depth: Int, key: ExplorationKey<Dial.State, Void>, byState: Bool,
  maxConfigurations: Int? = nil
) -> Explorer<Dial.State, Dial.Action, Void> {
  Explorer(
    depth: depth, key: key, maxConfigurations: maxConfigurations, stateHoldsEverything: byState
  ) {
    ExplorationSubject(store: TestStore(initialState: Dial.State()) { Dial() })
  } actions: { _, _ in
    Dial.Action.allCases
  }
}

@MainActor
private func raceExplorer(depth: Int, key: ExplorationKey<Race.State, Void> = .none)
  -> Explorer<Race.State, Race.Action, Void>
{
  Explorer(depth: depth, key: key) {
    ExplorationSubject(store: TestStore(initialState: Race.State()) { Race() })
  } actions: { state, _ in
    state.started ? [] : [.go]
  } invariant: { state, _ in
    Race.invariant(state)
  }
}

@MainActor
@Suite struct ExplorerTests {
  @Test(arguments: [false, true])
  func synchronousPathsMatchTheEnumeration(byState: Bool) async {
    let expected = enumerateDial(depth: 4)
    let result = await dialExplorer(depth: 4, key: .none, byState: byState).run()
    #expect(result.configurationsByDepth == expected.paths)
    #expect(result.configurations == expected.paths.reduce(0, +))
    #expect(result.transitions == expected.paths.dropFirst().reduce(0, +))
    #expect(result.pruned == 0)
    #expect(result.isComplete)
    #expect(result.depthCompleted == 4)
  }

  @Test(arguments: [false, true])
  func synchronousStatesMatchTheEnumeration(byState: Bool) async {
    let expected = enumerateDial(depth: 5)
    for key in [ExplorationKey<Dial.State, Void>.state, .stateText] {
      let result = await dialExplorer(depth: 5, key: key, byState: byState).run()
      #expect(result.configurationsByDepth == expected.states)
      #expect(result.configurations == 6)
      #expect(result.transitions == expected.transitions)
      #expect(result.pruned == expected.transitions - 5)
      #expect(result.isComplete)
      #expect(result.depthCompleted == 5)
      #expect(
        result.report.hasPrefix(
          "Explored every path to depth 5: no new configuration after depth 3"))
    }
  }

  @Test func pathsWithEffectsMatchTheEnumeration() async {
    let explorer = Explorer<Loader.State, Loader.Action, Void>(depth: 4, key: .none) {
      ExplorationSubject(store: TestStore(initialState: Loader.State()) { Loader() })
    } actions: { _, _ in
      [.load, .bump]
    }
    let result = await explorer.run()
    #expect(result.configurationsByDepth == enumerateLoaderPaths(depth: 4))
    #expect(result.isComplete)
  }

  @Test func configurationsWithEffectsMatchTheEnumeration() async {
    let explorer = Explorer<Loader.State, Loader.Action, Void>(depth: 5, key: .state) {
      ExplorationSubject(store: TestStore(initialState: Loader.State()) { Loader() })
    } actions: { _, _ in
      [.load, .bump]
    }
    let result = await explorer.run()
    let expected = enumerateLoaderConfigurations(depth: 5)
    #expect(result.configurationsByDepth == expected.byDepth)
    #expect(result.transitions == expected.transitions)
    #expect(result.pruned == expected.transitions - (result.configurations - 1))
  }

  @Test func pathsWithATimerMatchTheEnumeration() async {
    let explorer = Explorer<Metronome.State, Metronome.Action, Void>(depth: 6, key: .none) {
      let clock = TestClock()
      let store = TestStore(initialState: Metronome.State()) {
        Metronome()
      } withDependencies: {
        $0.continuousClock = clock
      }
      return ExplorationSubject(store: store, clock: clock)
    } actions: { state, _ in
      state.isRunning ? [.stop] : [.start]
    }
    let result = await explorer.run()
    #expect(result.configurationsByDepth == enumerateMetronomePaths(depth: 6))
    #expect(result.isComplete)
  }

  @Test func pathsOfTwoRacingEffectsMatchTheEnumeration() async {
    let explorer = Explorer<Race.State, Race.Action, Void>(depth: 4, key: .none) {
      ExplorationSubject(store: TestStore(initialState: Race.State()) { Race() })
    } actions: { state, _ in
      state.started ? [] : [.go]
    }
    let result = await explorer.run()
    #expect(result.configurationsByDepth == enumerateRacePaths(depth: 4))
    // After `go`, three orders of a1, a2 and b: every path ends at depth 4.
    #expect(result.configurationsByDepth == [1, 1, 2, 3, 3])
  }

  @Test func theShortestCounterexampleIsPrintedAndFailsTheSameWayOnATestStore() async throws {
    let result = await raceExplorer(depth: 4).run(reportsFailure: false)
    let failure = try #require(result.counterexample)
    #expect(failure.depth == 2)
    #expect(failure.events == [.send(.go), .receive(.b, effect: 2), .receive(.echo, effect: 0)])
    #expect(failure.message == "b arrived before a2: [\"b\", \"echo\"]")
    #expect(
      failure.steps == """
        1. send .go
        2. receive .b from effect 2
           then receive .echo (a reducer's .send, same event)
        """)
    #expect(
      failure.testStoreTest == """
        store.exhaustivity = .off
        store.holdsReceivedActions = true
        await store.send(.go)
        await store.receive(.b)  // effect 2
        await store.receive(.echo)
        // The invariant fails here: b arrived before a2: ["b", "echo"]
        """)
    #expect(result.depthCompleted == 1)
    #expect(result.report.contains("every path of 1 held"))
    // The printed test, step by step, on a test store: it reaches the same failing state.
    let store = TestStore(initialState: Race.State()) { Race() }
    store.exhaustivity = .off
    store.holdsReceivedActions = true
    await store.send(.go)
    await store.receive(.b)
    await store.receive(.echo)
    #expect(Race.invariant(store.state) == failure.message)
    #expect(store.state == failure.states.last)
    await store.skipReceivedActions()
  }

  @Test func withoutHeldActionsTheTestStoreCouldNotReachTheCounterexample() async {
    let store = TestStore(initialState: Race.State()) { Race() }
    store.exhaustivity = .off
    await store.send(.go)
    // Without it, `receive` reduces what waits before `.b` first: a1 lands ahead of b.
    await store.receive(.b)
    #expect(store.state.log == ["a1", "b"])
    await store.skipReceivedActions()
  }

  @Test(arguments: [false, true])
  func aStaleSearchResponseIsFoundOnlyWithoutCancelInFlight(isBuggy: Bool) async throws {
    let explorer = Explorer<Search.State, Search.Action, Void>(depth: 5, key: .state) {
      let clock = TestClock()
      let store = TestStore(initialState: Search.State()) {
        Search(isBuggy: isBuggy)
      } withDependencies: {
        $0.continuousClock = clock
      }
      return ExplorationSubject(store: store, clock: clock)
    } actions: { state, _ in
      [.queryChanged(state.query + "a"), .cleared]
    } invariant: { state, _ in
      Search.invariant(state)
    }
    let result = await explorer.run(reportsFailure: false)
    guard isBuggy else {
      // A response already sent but not yet delivered is cancelled with its effect.
      #expect(result.passed)
      #expect(result.isComplete)
      return
    }
    let failure = try #require(result.counterexample)
    #expect(
      failure.steps == """
        1. send .queryChanged("a")
        2. send .queryChanged("aa")
        3. advance the clock by 0.3 seconds
        4. receive .response("A") from effect 1
        """)
    #expect(failure.message == "results [\"A\"] for the query aa")
    // The printed test, on a test store: the same state, the same failure.
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search(isBuggy: true)
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.exhaustivity = .off
    store.holdsReceivedActions = true
    await store.send(.queryChanged("a"))
    await store.send(.queryChanged("aa"))
    await clock.advance(by: .milliseconds(300))
    await store.receive(.response("A"))
    #expect(Search.invariant(store.state) == failure.message)
    #expect(store.state == failure.states.last)
    await store.skipInFlightEffects()
  }

  @Test func aHeldResponseIsCancelledWithItsEffectOnATestStoreToo() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.exhaustivity = .off
    store.holdsReceivedActions = true
    await store.send(.queryChanged("a"))
    await clock.advance(by: .milliseconds(300))
    await store.send(.queryChanged("aa"))  // cancels the first search, response and all
    await clock.advance(by: .milliseconds(300))
    await store.receive(.response("AA"))
    #expect(store.state.results == ["AA"])
    // Nothing of the first search is left to land now.
    await store.finish()
    #expect(store.state.results == ["AA"])
  }

  @Test func aRuntimeWarningFailsThePathUnlessAllowed() async throws {
    func explorer(allowing: Bool) -> Explorer<Door.State, Door.Action, Void> {
      Explorer(depth: 3, key: .state) {
        ExplorationSubject(store: TestStore(initialState: Door.State()) { Door() })
      } actions: { _, _ in
        [.open, .shut, .room(.poke)]
      } allowsWarning: { message in
        allowing && message.contains("child state was nil")
      }
    }
    let failing = await explorer(allowing: false).run(reportsFailure: false)
    let failure = try #require(failing.counterexample)
    #expect(failure.isWarning)
    #expect(failure.events == [.send(.room(.poke))])
    #expect(failure.message.hasPrefix("unexpected runtime warning: "))
    #expect(failure.message.contains("child state was nil"))
    // The warning's lines are joined into the comment's one line.
    let oneLine = failure.message.split(separator: "\n").joined(separator: " ")
    #expect(failure.testStoreTest.hasSuffix("// The runtime warning is reported here: \(oneLine)"))
    let allowed = await explorer(allowing: true).run()
    #expect(allowed.passed)
    #expect(allowed.isComplete)
  }

  @Test func aTimeLimitStopsTheSearchAndSaysSo() async {
    var explorer = dialExplorer(depth: 6, key: .none, byState: true)
    explorer.timeLimit = .zero
    let result = await explorer.run()
    #expect(!result.isComplete)
    #expect(result.depthCompleted == 0)
    #expect(result.fractionOfNextDepth == 0)
    #expect(
      result.report.hasPrefix("Exploration stopped: the time limit of 0.0 seconds was reached."))
  }

  @Test func theCounterexampleIsTheSameEveryRun() async {
    let first = await raceExplorer(depth: 4, key: .stateText).run(reportsFailure: false)
    let second = await raceExplorer(depth: 4, key: .stateText).run(reportsFailure: false)
    #expect(first.counterexample?.steps == second.counterexample?.steps)
    #expect(first.configurations == second.configurations)
    #expect(first.transitions == second.transitions)
  }

  @Test func countsWithEffectsOnAClockAreTheSameEveryRun() async {
    let explorer = Explorer<Search.State, Search.Action, Void>(depth: 5, key: .state) {
      let clock = TestClock()
      let store = TestStore(initialState: Search.State()) {
        Search()
      } withDependencies: {
        $0.continuousClock = clock
      }
      return ExplorationSubject(store: store, clock: clock)
    } actions: { state, _ in
      [.queryChanged(state.query + "a"), .queryChanged(state.query + "b"), .cleared]
    }
    var counts: [[Int]] = []
    for _ in 0..<3 {
      let result = await explorer.run()
      counts.append(result.configurationsByDepth + [result.transitions, result.pruned])
    }
    #expect(Set(counts.map { $0.description }).count == 1, "\(counts)")
  }

  @Test func aBudgetStopsTheSearchAndSaysHowFarItGot() async {
    let result = await dialExplorer(depth: 6, key: .none, byState: true, maxConfigurations: 20)
      .run()
    #expect(!result.isComplete)
    #expect(result.depthCompleted == 2)
    // 13 configurations stored by depth 2; the 9 of depth 2 are expanded 3 at a time.
    #expect(result.configurations == 22)
    #expect(result.fractionOfNextDepth == 3.0 / 9.0)
    #expect(
      result.report.hasPrefix(
        "Exploration stopped: the budget of 20 configurations was reached. It explored every "
          + "path to depth 2, 33% of depth 3."))
  }

  @Test func aFailureIsReportedAtTheRunCall() async {
    await withKnownIssue {
      await raceExplorer(depth: 3).run()
    } matching: { issue in
      issue.description.contains("Exploration failed after 2 events")
    }
  }

  @Test func anInvariantOfTheInitialStateFailsAtDepthZero() async {
    let explorer = Explorer<Dial.State, Dial.Action, Void>(depth: 2) {
      ExplorationSubject(store: TestStore(initialState: Dial.State()) { Dial() })
    } actions: { _, _ in
      Dial.Action.allCases
    } invariant: { state, _ in
      state.isOn ? nil : "off"
    }
    let result = await explorer.run(reportsFailure: false)
    #expect(result.counterexample?.depth == 0)
    #expect(result.counterexample?.message == "off")
    #expect(result.transitions == 0)
  }

  @Test func aTransitionInvariantSeesTheEventBetweenTwoStates() async throws {
    let explorer = Explorer<Dial.State, Dial.Action, Void>(depth: 3, key: .state) {
      ExplorationSubject(store: TestStore(initialState: Dial.State()) { Dial() })
    } actions: { _, _ in
      Dial.Action.allCases
    } transition: { step, _ in
      step.event == .send(.reset) && step.before.value == 2 ? "reset from 2" : nil
    }
    let result = await explorer.run(reportsFailure: false)
    let failure = try #require(result.counterexample)
    #expect(failure.events == [.send(.turn), .send(.turn), .send(.reset)])
  }
}
