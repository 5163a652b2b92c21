import Cascade
import CascadeTesting

// Plain-Swift floors: the same state mutation, done by a function on an `inout` value. Kept
// opaque to the optimizer, which would otherwise fold the loops away and report zero.

@_optimize(none) @inline(never) func floorIncrement(_ state: inout Counter.State) {
  state.count &+= 1
}

@_optimize(none) @inline(never) func floorDeep(_ state: inout L10.State) {
  state.child.child.child.child.child.child.child.child.child.child.count &+= 1
}

@_optimize(none) @inline(never) func floorReadDeep(_ state: inout L10.State) -> Int {
  state.child.child.child.child.child.child.child.child.child.child.count
}

@MainActor
enum Workloads {
  static func w1() -> Result {
    let n = 1_000_000
    let store = Store(initialState: Counter.State()) { Counter() }
    let run = measure(operations: n) {
      for _ in 0..<n { store.send(.increment) }
      return store.state.count
    }
    var floorState = Counter.State()
    let floor = measure(operations: n) {
      for _ in 0..<n { floorIncrement(&floorState) }
      return floorState.count
    }
    let allocs = Allocations.perOperation(10_000) { for _ in 0..<10_000 { store.send(.increment) } }
    return result("W1", "send", run, floor, allocs: allocs)
  }

  /// W1i: W1 with an interception point installed that does nothing (`.intercept()`). W1 is
  /// the unused case: an interception point that is not installed is not in the tree at all.
  static func w1i() -> Result {
    let n = 1_000_000
    let store = Store(initialState: Counter.State()) { Counter().intercept() }
    let run = measure(operations: n) {
      for _ in 0..<n { store.send(.increment) }
      return store.state.count
    }
    var floorState = Counter.State()
    let floor = measure(operations: n) {
      for _ in 0..<n { floorIncrement(&floorState) }
      return floorState.count
    }
    let allocs = Allocations.perOperation(10_000) { for _ in 0..<10_000 { store.send(.increment) } }
    return result("W1i", "send through an empty intercept()", run, floor, allocs: allocs)
  }

  static func w2() -> Result {
    let n = 100_000
    let store = Store(initialState: deepState()) { deepFeature() }
    let deepLeafAction = deepLeafAction()
    let run = measure(operations: n) {
      for _ in 0..<n { store.send(deepLeafAction) }
      return {
        var state = store.state
        return floorReadDeep(&state)
      }()
    }
    var floorState = deepState()
    let floor = measure(operations: n) {
      for _ in 0..<n { floorDeep(&floorState) }
      return floorReadDeep(&floorState)
    }
    let allocs = Allocations.perOperation(10_000) {
      for _ in 0..<10_000 { store.send(deepLeafAction) }
    }
    return result("W2", "deep-compose (10 Scopes)", run, floor, allocs: allocs)
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
    var floorState = deepState()
    let floor = measure(operations: n) {
      for _ in 0..<n { floorDeep(&floorState) }
      return floorReadDeep(&floorState)
    }
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
      for _ in 0..<chains { total &+= floorReadDeep(&floorState) }
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
    let floor = measure(operations: 3 * n) {
      var path: [Screen.State] = []
      for _ in 0..<n { path.append(Screen.State()) }
      for index in path.indices { path[index].taps &+= 1 }
      var total = 0
      while let last = path.popLast() { total &+= last.taps }
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

  static func w5() async -> Result {
    let n = 10_000
    let store = Store(initialState: Ping.State()) { Ping() }
    let run = await measure(operations: n) {
      var tasks: [StoreTask] = []
      tasks.reserveCapacity(n)
      for _ in 0..<n { tasks.append(store.send(.ping)) }
      for task in tasks { await task.finish() }
      return store.state.pongs
    }
    @MainActor final class Box { var value = 0 }
    let box = Box()
    let floor = await measure(operations: n) {
      var tasks: [Task<Void, Never>] = []
      tasks.reserveCapacity(n)
      for _ in 0..<n { tasks.append(Task.detached { await MainActor.run { box.value &+= 1 } }) }
      for task in tasks { await task.value }
      return box.value
    }
    return result(
      "W5", "effects: .run sending a follow-up", run, floor, allocs: nil,
      note: "floor: a plain Task per effect that hops to the main actor")
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
      for index in 1...n {
        floorIncrement(&state)
        if state == Counter.State(count: index) { matches &+= 1 }
      }
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
    var floorState = Presenter.State()
    let floor = measure(operations: n) {
      var total = 0
      for _ in 0..<n {
        floorState.child = Counter.State()
        total &+= floorState.child?.count ?? 1
        floorState.child = nil
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
      for _ in 0..<n { total &+= leaf.state.count }
      return total
    }
    var floorState = store.state
    let floor = measure(operations: n) {
      var total = 0
      for _ in 0..<n { total &+= floorReadDeep(&floorState) }
      return total
    }
    return result("W8", "read a field through a store scoped 10 deep", run, floor, allocs: nil)
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
    _ floor: (nsPerOp: Double, checksum: Int), allocs: Double?, note: String? = nil
  ) -> Result {
    Result(
      id: id, name: name, nsPerOp: run.nsPerOp, floorNsPerOp: floor.nsPerOp,
      ratio: run.nsPerOp / max(floor.nsPerOp, 0.01), allocsPerOp: allocs,
      checksum: run.checksum &+ floor.checksum, note: note)
  }
}
