import Cascade
import CascadeTesting
import Observation

@MainActor
enum Workloads {
  /// W1: a root send to a counter. `observed`: an observer has read the store's state (with
  /// `withObservationTracking`, as a view does) and does not read it again: it hears the first
  /// batch, and later batches skip the registrar, as nobody is registered. Not observed:
  /// nothing has ever read the state through the store (the count is read after the timing).
  static func w1(observed: Bool) -> Result {
    let n = 1_000_000
    let store = Store(initialState: Counter.State()) { Counter() }
    var observedCount = 0
    if observed {
      withObservationTracking {
        observedCount = store.state.count
      } onChange: {
      }
    }
    let run = measure(operations: n) {
      for _ in 0..<n { store.send(.increment) }
      return n
    }
    let allocs = Allocations.perOperation(10_000) { for _ in 0..<10_000 { store.send(.increment) } }
    let floor = counterFloor(n)
    let checksum = (run.nsPerOp, run.checksum &+ store.state.count &+ observedCount)
    return observed
      ? result("W1", "send, observed", checksum, floor, allocs: allocs)
      : result("W1n", "send, never observed", checksum, floor, allocs: allocs)
  }

  /// W1o: a root send to a counter whose state an observer reads again before every send, as
  /// a view does that renders after every change: every batch tells the registrar. The floor
  /// is the same observer on a plain `@Observable` model changed by a plain function.
  static func w1o() -> Result {
    let n = 200_000
    let store = Store(initialState: Counter.State()) { Counter() }
    let run = measure(operations: n) {
      var total = 0
      for _ in 0..<n {
        withObservationTracking {
          total &+= store.state.count
        } onChange: {
        }
        store.send(.increment)
      }
      return total
    }
    let model = PlainCounterModel()
    let floor = measure(operations: n) {
      var total = 0
      for _ in 0..<n { total &+= floorObservedIncrement(model) }
      return total
    }
    return result(
      "W1o", "send, re-observed before each send", run, floor, allocs: nil,
      note: "floor: the same observer on a plain @Observable model")
  }

  static func counterFloor(_ n: Int) -> (nsPerOp: Double, checksum: Int) {
    var floorState = Counter.State()
    return measure(operations: n) {
      var total = 0
      for _ in 0..<n { total &+= floorIncrement(&floorState) }
      return total
    }
  }

  /// W1i: W1 with an interception point installed that does nothing (`.intercept()`). W1 is
  /// the unused case: an interception point that is not installed is not in the tree at all.
  static func w1i() -> Result {
    let n = 1_000_000
    let store = Store(initialState: Counter.State()) { Counter().intercept() }
    _ = store.state
    let run = measure(operations: n) {
      for _ in 0..<n { store.send(.increment) }
      return store.state.count
    }
    let floor = counterFloor(n)
    let allocs = Allocations.perOperation(10_000) { for _ in 0..<10_000 { store.send(.increment) } }
    return result("W1i", "send through an empty intercept(), observed", run, floor, allocs: allocs)
  }

  /// W1d: W1 with a `.dependency(...)` override around the counter: the override is applied to
  /// every action.
  static func w1d() -> Result {
    let n = 1_000_000
    let store = Store(initialState: Counter.State()) {
      Counter().dependency(\.benchmarkValue, 42)
    }
    _ = store.state
    let run = measure(operations: n) {
      for _ in 0..<n { store.send(.increment) }
      return store.state.count
    }
    let floor = counterFloor(n)
    let allocs = Allocations.perOperation(10_000) { for _ in 0..<10_000 { store.send(.increment) } }
    return result("W1d", "send through .dependency(...), observed", run, floor, allocs: allocs)
  }

  static func w2() -> Result {
    let n = 100_000
    let store = Store(initialState: deepState()) { deepFeature() }
    let deepLeafAction = deepLeafAction()
    _ = store.state
    let run = measure(operations: n) {
      for _ in 0..<n { store.send(deepLeafAction) }
      var state = store.state
      return floorReadDeep(&state, 0)
    }
    let floor = deepFloor(n)
    let allocs = Allocations.perOperation(10_000) {
      for _ in 0..<10_000 { store.send(deepLeafAction) }
    }
    return result("W2", "deep-compose (10 Scopes)", run, floor, allocs: allocs)
  }

  static func deepFloor(_ n: Int) -> (nsPerOp: Double, checksum: Int) {
    var floorState = deepState()
    return measure(operations: n) {
      var total = 0
      for _ in 0..<n { total &+= floorDeep(&floorState) }
      return total
    }
  }

  static func scopeToLeaf(_ store: StoreOf<L10>) -> StoreOf<Counter> {
    store.scope(state: \.child, action: L10.Action.child)
      .scope(state: \.child, action: L9.Action.child)
      .scope(state: \.child, action: L8.Action.child)
      .scope(state: \.child, action: L7.Action.child)
      .scope(state: \.child, action: L6.Action.child)
      .scope(state: \.child, action: L5.Action.child)
      .scope(state: \.child, action: L4.Action.child)
      .scope(state: \.child, action: L3.Action.child)
      .scope(state: \.child, action: L2.Action.child)
      .scope(state: \.child, action: L1.Action.child)
  }

  static func w3() -> [Result] {
    let n = 100_000
    let store = Store(initialState: deepState()) { deepFeature() }
    let leaf = scopeToLeaf(store)
    let run = measure(operations: n) {
      for _ in 0..<n { leaf.send(.increment) }
      return leaf.state.count
    }
    let floor = deepFloor(n)
    var floorState = deepState()
    let sendAllocs = Allocations.perOperation(10_000) {
      for _ in 0..<10_000 { leaf.send(.increment) }
    }
    let chains = 10_000
    let cached = measure(operations: chains) {
      var total = 0
      for _ in 0..<chains { total &+= scopeToLeaf(store) === leaf ? 1 : 0 }
      return total
    }
    let stores = (0..<1_000).map { _ in Store(initialState: deepState()) { deepFeature() } }
    let uncached = measure(operations: stores.count, repetitions: 1) {
      var total = 0
      for store in stores { total &+= scopeToLeaf(store).state.count }
      return total
    }
    let floorRead = measure(operations: chains) {
      var total = 0
      for index in 0..<chains { total &+= floorReadDeep(&floorState, index) }
      return total
    }
    return [
      result("W3", "scoped store, 10 levels: send", run, floor, allocs: sendAllocs),
      result(
        "W3c", "10 scope calls, cached", cached, floorRead, allocs: nil,
        note: "floor: reading the leaf through plain structs"),
      result(
        "W3u", "10 scope calls, uncached (new stores)", uncached, floorRead, allocs: nil,
        note: "floor: reading the leaf through plain structs"),
    ]
  }

  static func w4() -> Result {
    let n = 1_000
    let store = Store(initialState: StackRoot.State()) { StackRoot() }
    let run = measure(operations: 3 * n) {
      for _ in 0..<n { store.send(.push) }
      let ids = store.state.path.ids
      for id in ids { store.send(.path(.element(id: id, action: .tap))) }
      for id in ids.reversed() { store.send(.path(.popFrom(id: id))) }
      return ids.count
    }
    var path: [Screen.State] = []
    let floor = measure(operations: 3 * n) {
      var total = 0
      for _ in 0..<n { total &+= floorPush(&path) }
      for index in 0..<n { total &+= floorTap(&path, index) }
      for _ in 0..<n { total &+= floorPop(&path) }
      return total
    }
    let allocs = Allocations.perOperation(3 * n) {
      for _ in 0..<n { store.send(.push) }
      let ids = store.state.path.ids
      for id in ids { store.send(.path(.element(id: id, action: .tap))) }
      for id in ids.reversed() { store.send(.path(.popFrom(id: id))) }
    }
    return result("W4", "stack: push, element action, pop (per step)", run, floor, allocs: allocs)
  }

  /// W5: the effect round trip, timed as a peer's would be: `n` actions each start a `.run`
  /// effect that sends a follow-up, and the clock stops when the last follow-up has been
  /// reduced (the reducer says so; nothing polls). The floor: a raw `Task` per effect that hops
  /// to the main actor and does the follow-up's work.
  static func w5() async -> [Result] {
    let n = 10_000
    let roundTrips = RoundTrips()
    let store = Store(initialState: Ping.State()) { Ping(roundTrips: roundTrips) }
    _ = store.state
    // The three timed one after another, pass after pass (`measureInterleaved`): timed in turn,
    // a drift of the machine between them moved W5's ratio to W5m by a third from run to run.
    func plain(_ start: @escaping @MainActor (RoundTrips) -> Int) -> Timed {
      Timed { units in
        var total = 0
        await roundTrips.run(units) { for _ in 0..<units { total &+= start(roundTrips) } }
        return total
      }
    }
    let timings = await measureInterleaved(
      [
        Timed { units in
          await roundTrips.run(units) { for _ in 0..<units { store.send(.ping) } }
          return store.state.pongs
        },
        plain(floorEffect), plain(modelContractEffect),
      ], repetitions: 9)
    let (run, floor, model) = (timings[0], timings[1], timings[2])
    let allocs = await Allocations.perOperation(n) {
      await roundTrips.run(n) { for _ in 0..<n { store.send(.ping) } }
    }
    let floorAllocs = await plainAllocations(n, roundTrips, start: floorEffect)
    let modelAllocs = await plainAllocations(n, roundTrips, start: modelContractEffect)

    // W5f: `finish()` on a send whose effects have all finished, against awaiting a finished
    // task.
    let finishes = 10_000
    let task = store.send(.ping)
    await task.finish()
    let finish = await measure(operations: finishes) {
      for _ in 0..<finishes { await task.finish() }
      return finishes
    }
    let finishAllocs = await Allocations.perOperation(finishes) {
      for _ in 0..<finishes { await task.finish() }
    }
    let finished = Task { 1 }
    _ = await finished.value
    let finishFloor = await measure(operations: finishes) {
      var total = 0
      for _ in 0..<finishes { total &+= await floorFinish(finished) }
      return total
    }
    return [
      result(
        "W5", "effects: .run round trip to its follow-up", run, floor, allocs: allocs,
        floorAllocs: floorAllocs,
        note: "floor: a raw Task per effect that hops to the main actor and does the work"),
      result(
        "W5m", "model: the effect contract alone, in plain Swift", model, floor,
        allocs: modelAllocs, floorAllocs: floorAllocs,
        note:
          "not Cascade: a main-actor Task, its operation off the main actor inside a task-local "
          + "value, the follow-up back on it; W5's floor"),
      result(
        "W5f", "finish() on a finished send", finish, finishFloor, allocs: finishAllocs,
        note: "floor: awaiting a finished Task's value"),
    ]
  }

  /// The allocations of `n` plain-Swift round trips, each started by `start`.
  static func plainAllocations(
    _ n: Int, _ roundTrips: RoundTrips, start: (RoundTrips) -> Int
  ) async -> Double? {
    await Allocations.perOperation(n) {
      await roundTrips.run(n) { for _ in 0..<n { _ = start(roundTrips) } }
    }
  }

  static func w6() async -> Result {
    let n = 10_000
    let run = await measure(operations: n, repetitions: 3) {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      for index in 1...n { await store.send(.increment) { $0.count = index } }
      return store.state.count
    }
    let floor = measure(operations: n, repetitions: 3) {
      var state = Counter.State()
      var matches = 0
      for index in 1...n { matches &+= floorAssertedIncrement(&state, index) }
      return matches
    }
    return result("W6", "test store: send with an assertion", run, floor, allocs: nil)
  }

  static func w7() -> Result {
    let n = 100_000
    let store = Store(initialState: Presenter.State()) { Presenter() }
    let run = measure(operations: n) {
      for _ in 0..<n {
        store.send(.present)
        store.send(.child(.dismiss))
      }
      return store.state.child == nil ? n : 0
    }
    var floorState = PlainPresenter()
    let floor = measure(operations: n) {
      var total = 0
      for _ in 0..<n {
        total &+= floorPresent(&floorState)
        total &+= floorDismiss(&floorState)
      }
      return total
    }
    let allocs = Allocations.perOperation(10_000) {
      for _ in 0..<10_000 {
        store.send(.present)
        store.send(.child(.dismiss))
      }
    }
    return result("W7", "present and dismiss a child (per cycle)", run, floor, allocs: allocs)
  }

  static func w8() -> Result {
    let n = 1_000_000
    let store = Store(initialState: deepState()) { deepFeature() }
    let leaf = scopeToLeaf(store)
    store.send(deepLeafAction())
    let run = measure(operations: n) {
      var total = 0
      for index in 0..<n { total &+= leaf.state.count &+ index }
      return total
    }
    var floorState = deepState()
    let floor = measure(operations: n) {
      var total = 0
      for index in 0..<n { total &+= floorReadDeep(&floorState, index) }
      return total
    }
    return result("W8", "read a field through a store scoped 10 deep", run, floor, allocs: nil)
  }

  /// W12: one row action through `forEach` on a 10-row store, not a scaling row: the constant
  /// cost of routing an action to a row. A W1 send is measured beside it for the note.
  static func w12() -> Result {
    let n = 1_000_000
    let rows = 10
    let store = Store(initialState: ScalingRows.State(count: rows)) { ScalingRows() }
    _ = store.state
    var id = 0
    let run = measure(operations: n) {
      for _ in 0..<n {
        store.send(rowAction(id))
        nextRow(&id, rows)
      }
      return store.state.rows[0].count
    }
    let allocs = Allocations.perOperation(10_000) {
      for index in 0..<10_000 { store.send(rowAction(index % rows)) }
    }
    var plain = (0..<rows).map { ScalingRow.State(id: $0) }
    let positions = Dictionary(uniqueKeysWithValues: (0..<rows).map { ($0, $0) })
    var floorID = 0
    let floor = measure(operations: n) {
      var total = 0
      for _ in 0..<n {
        total &+= floorRowIncrement(&plain, positions, floorID)
        nextRow(&floorID, rows)
      }
      return total
    }
    let counter = Store(initialState: Counter.State()) { Counter() }
    _ = counter.state
    let w1 = measure(operations: n) {
      for _ in 0..<n { counter.send(.increment) }
      return counter.state.count
    }
    return result(
      "W12", "forEach row action (10 rows)", (run.nsPerOp, run.checksum &+ w1.checksum), floor,
      allocs: allocs,
      note: "target ≤ 5× W1: a W1 send measured beside it took "
        + String(format: "%.1f ns, so W12 is %.1f× W1", w1.nsPerOp, run.nsPerOp / w1.nsPerOp))
  }

  /// W9: the memory a store holding a 100,000-screen stack adds, and the process's peak.
  static func w9() -> (addedBytes: Int, peakBytes: Int) {
    let before = residentBytes()
    var path = StackState<Screen.State>()
    for _ in 0..<100_000 { path.append(Screen.State()) }
    let store = Store(initialState: StackRoot.State(path: path)) { StackRoot() }
    store.send(.path(.element(id: 50_000, action: .tap)))
    let added = residentBytes() - before
    withExtendedLifetime(store) {}
    return (added, peakResidentBytes())
  }

  static func result(
    _ id: String, _ name: String, _ run: (nsPerOp: Double, checksum: Int),
    _ floor: (nsPerOp: Double, checksum: Int), allocs: Double?, floorAllocs: Double? = nil,
    note: String? = nil
  ) -> Result {
    Result(
      id: id, name: name, nsPerOp: run.nsPerOp, floorNsPerOp: floor.nsPerOp,
      ratio: run.nsPerOp / max(floor.nsPerOp, 0.01), allocsPerOp: allocs,
      floorAllocsPerOp: floorAllocs, checksum: run.checksum &+ floor.checksum, note: note)
  }
}
