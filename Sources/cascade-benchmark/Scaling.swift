import Cascade
import CascadeTesting
import Foundation
import Observation

// The scaling rows (issue 37): each workload measured at several sizes in one process, beside a
// plain-Swift floor measured the same way, every case interleaved with the others (see
// `measureInterleaved`). A row reports its cost at each size and its growth: the cost at the
// largest size over the cost at the smallest. A flat row grows 1×.

// MARK: Features

/// A row of a list: S1, S1s, S4b, S5, S6, S7 and W12.
struct ScalingRow: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var count = 0
  }
  enum Action { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// A list of rows, each run by `forEach`.
struct ScalingRows: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<ScalingRow.State>
    init(count: Int) {
      rows = IdentifiedArray(uniqueElements: (0..<count).map { ScalingRow.State(id: $0) })
    }
  }
  enum Action { case rows(IdentifiedActionOf<ScalingRow>) }
  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: Action.rows) { ScalingRow() }
  }
}

/// The action of row `id`.
func rowAction(_ id: Int) -> ScalingRows.Action { .rows(.element(id: id, action: .increment)) }

/// S3: a feature holding an optional child of its own type, to any depth.
struct Nested: Reducer {
  struct State: Equatable {
    var count = 0
    @Indirect var child: State?
    /// A state `depth` levels deep below this one.
    init(depth: Int) { _child = Indirect(wrappedValue: depth > 0 ? State(depth: depth - 1) : nil) }
  }
  indirect enum Action {
    case increment
    case child(Action)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count &+= 1 }
      return .none
    }
    .ifLet(\.child, action: Action.child) { Nested() }
  }
}

/// S3p: a feature presenting a feature of its own type, to any depth, through
/// `@PresentationState` and the presentation `ifLet`.
struct PresentingNested: Reducer {
  struct State: Equatable {
    var count = 0
    @PresentationState var child: State?
    /// A state presenting `depth` levels below this one.
    init(depth: Int) {
      _child = PresentationState(wrappedValue: depth > 0 ? State(depth: depth - 1) : nil)
    }
  }
  indirect enum Action {
    case increment
    case child(PresentationAction<Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count &+= 1 }
      return .none
    }
    .ifLet(\.$child, action: Action.child) { PresentingNested() }
  }
}

/// The action of the level `depth` presentations below the root:
/// `.child(.presented(.child(.presented(... .increment))))`.
func presentingNestedAction(_ depth: Int) -> PresentingNested.Action {
  depth == 0 ? .increment : .child(.presented(presentingNestedAction(depth - 1)))
}

/// The action of the level `depth` below the root: `.child(.child(... .increment))`.
func nestedAction(_ depth: Int) -> Nested.Action {
  depth == 0 ? .increment : .child(nestedAction(depth - 1))
}

/// A value stored in a box of its own, so that a value can hold a value of its own type;
/// copied on write.
@propertyWrapper
struct Indirect<Value> {
  private final class Box {
    // Unchecked: a box is reached only through its wrapper, which copies it before a write
    // unless it is the only holder. Checked, a change D levels down through nested `_modify`s
    // would keep D accesses open, each checked against the others (quadratic in D).
    @exclusivity(unchecked) var value: Value
    init(_ value: Value) { self.value = value }
  }
  private var box: Box

  init(wrappedValue: Value) { box = Box(wrappedValue) }

  var wrappedValue: Value {
    get { box.value }
    set {
      if isKnownUniquelyReferenced(&box) { box.value = newValue } else { box = Box(newValue) }
    }
    _modify {
      if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
      yield &box.value
    }
  }
}

extension Indirect: Equatable where Value: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}

/// S8: a reducer writing one element of a shared array.
struct SharedArrayWriter: Reducer {
  struct State {
    @Shared var values: [Int]
  }
  enum Action { case write(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case let .write(index) = action { state.$values.withLock { $0[index] &+= 1 } }
    return .none
  }
}

// MARK: Floors

/// S4b's floor: a small object.
final class PlainRowObject {
  let id: Int
  init(id: Int) { self.id = id }
}

/// S5's floor: a plain observable row, written out as the `@Observable` macro would write it.
@MainActor
final class PlainRowModel: Observable {
  private let registrar = ObservationRegistrar()
  private var storedCount = 0
  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return storedCount
    }
    set {
      registrar.withMutation(of: self, keyPath: \.count) { storedCount = newValue }
    }
  }
}

/// S8's floor: a plain array held in a class.
final class PlainArrayHolder {
  var values: [Int]
  init(values: [Int]) { self.values = values }
}

/// S1, S1s, S7, W12: the row with `id`, found by a dictionary, changed in a plain array.
@inline(never) func floorRowIncrement(
  _ rows: inout [ScalingRow.State], _ positions: [Int: Int], _ id: Int
) -> Int {
  let index = positions[id]!
  rows[index].count &+= 1
  return rows[index].count
}

/// S3r: the level an action names below the root of a plain recursive value, changed: the
/// action routed by hand, a level per `.child` case, as the feature's reducers route it.
@inline(never) func floorNestedIncrement(_ state: inout Nested.State, _ action: Nested.Action)
  -> Int
{
  switch action {
  case .increment:
    state.count &+= 1
    return state.count
  case let .child(action):
    guard state.child != nil else { return 0 }
    return floorNestedIncrement(&state.child!, action)
  }
}

/// S3p's and S3pl's floor: `PresentingNested`'s shape in plain Swift. A value holds an optional
/// value of its own type in a box copied on write (as `@PresentationState` does), and an
/// action names a level through a case that wraps the next level's action as a presentation
/// action does.
struct PlainPresenting {
  var count = 0
  @Indirect var child: PlainPresenting?
  /// A value `depth` levels deep below this one.
  init(depth: Int) { _child = Indirect(wrappedValue: depth > 0 ? Self(depth: depth - 1) : nil) }
}

/// `PlainPresenting`'s action, shaped like `PresentingNested.Action`.
indirect enum PlainPresentingAction {
  case increment
  case child(PlainPresentationAction)
}

/// `PresentationAction`'s shape, for `PlainPresentingAction`.
enum PlainPresentationAction {
  case presented(PlainPresentingAction)
  case dismiss
}

/// The action of the level `depth` below the root, built from the leaf up (a box a level).
func plainPresentingAction(_ depth: Int) -> PlainPresentingAction {
  depth == 0 ? .increment : .child(.presented(plainPresentingAction(depth - 1)))
}

/// S3p: the level an action names below the root changed, the action routed by hand a level
/// at a time.
@inline(never) func floorPresentingNestedIncrement(
  _ state: inout PlainPresenting, _ action: PlainPresentingAction
) -> Int {
  switch action {
  case .increment:
    state.count &+= 1
    return state.count
  case let .child(.presented(action)):
    guard state.child != nil else { return 0 }
    return floorPresentingNestedIncrement(&state.child!, action)
  case .child(.dismiss):
    return 0
  }
}

/// S3pl: the level `depth` presentations down changed from there: the action built from the
/// leaf up, then routed by hand.
@inline(never) func floorPresentingNestedLeafIncrement(_ state: inout PlainPresenting, _ depth: Int)
  -> Int
{
  floorPresentingNestedIncrement(&state, plainPresentingAction(depth))
}

/// S4b: a small object made and inserted into a dictionary.
@inline(never) func floorMakeRowObject(_ objects: inout [Int: PlainRowObject], _ id: Int) -> Int {
  objects[id] = PlainRowObject(id: id)
  return objects.count
}

/// S5: one observable row changed.
@MainActor @inline(never) func floorObservedRowChange(_ model: PlainRowModel) -> Int {
  model.count &+= 1
  return 1
}

/// S6: a row changed, the expectation changed the same way, and the two compared.
@inline(never) func floorAssertedRowIncrement(
  _ actual: inout [ScalingRow.State], _ expected: inout [ScalingRow.State], _ index: Int
) -> Int {
  actual[index].count &+= 1
  expected[index].count &+= 1
  return actual == expected ? 1 : 0
}

/// S8: one element of an array held in a class written.
@inline(never) func floorHeldArrayWrite(_ holder: PlainArrayHolder, _ index: Int) -> Int {
  holder.values[index] &+= 1
  return holder.values[index]
}

// MARK: Helpers

/// Counts the wake-ups of observers, on the main actor.
@MainActor
final class WakeCounter {
  var count = 0
}

/// Observes what `read` reads; when told of a change, counts it and observes again, as a view
/// reads its state again when it renders.
@MainActor
func observeAgain(_ counter: WakeCounter, _ read: @escaping @MainActor @Sendable () -> Int) {
  withObservationTracking {
    _ = read()
  } onChange: {
    MainActor.assumeIsolated {
      counter.count &+= 1
      observeAgain(counter, read)
    }
  }
}

/// Lets the main actor's queued jobs (woken `for await` loops) run.
@MainActor
func letQueuedTasksRun() async {
  for _ in 0..<5 { await Task.yield() }
}

/// Yields until `condition` holds, for at most a second; whether it came to hold.
@MainActor
@discardableResult
func waitUntil(_ condition: () -> Bool) async -> Bool {
  let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
  while !condition() {
    if DispatchTime.now().uptimeNanoseconds > deadline {
      Scaling.missedWaits += 1
      return false
    }
    await Task.yield()
  }
  return true
}

/// The next row of `count` rows after `id`, round.
@inline(__always) func nextRow(_ id: inout Int, _ count: Int) {
  id &+= 1
  if id == count { id = 0 }
}

/// Which row each action of a row workload touches (S7's variants, S5w).
enum RowPick: String {
  /// Each row in turn, round.
  case inOrder = "rows in order"
  /// A row picked by a xorshift generator, the same sequence in every run.
  case random = "rows at random"
  /// Always row 0.
  case first = "always the first row"
  /// Always the last row.
  case last = "always the last row"

  /// A source of row ids of `count` rows, picked this way.
  func rows(_ count: Int) -> RowSource { RowSource(pick: self, count: count) }
}

/// The rows a workload's actions touch, one after another.
struct RowSource {
  let pick: RowPick
  let count: Int
  private var id = 0
  private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

  init(pick: RowPick, count: Int) {
    self.pick = pick
    self.count = count
    if pick == .last { id = count - 1 }
  }

  /// The next row's id.
  @inline(__always) mutating func next() -> Int {
    switch pick {
    case .inOrder:
      defer { nextRow(&id, count) }
      return id
    case .random:
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(count))
    case .first, .last: return id
    }
  }
}

// MARK: Rows

@MainActor
enum Scaling {
  static let rowCounts = [100, 1_000, 10_000]
  /// S3's depths; `CASCADE_BENCHMARK_DEPTHS=1,20` picks others (a profiler's run, which needs
  /// one depth at a time to read a level's cost from its counts).
  static let depths =
    ProcessInfo.processInfo.environment["CASCADE_BENCHMARK_DEPTHS"].map {
      $0.split(separator: ",").compactMap { Int($0) }
    } ?? [1, 5, 10, 20]
  static let observerCounts = [1, 10, 100, 1_000]
  static let testRowCounts = [10, 100, 1_000, 10_000]
  static let recordedRowCounts = [10, 100, 1_000, 10_000]
  static let sharedArraySizes = [10, 100, 1_000, 10_000]

  /// S6x's shared value, kept alive for the rest of the process.
  static var keptShared: Shared<Int>?
  /// The waits for an observer's wake-up that gave up after a second.
  static var missedWaits = 0

  /// A root send of a row action, round the rows (or as `pick` says), on `store` of `n` rows.
  static func rowSends(
    _ store: StoreOf<ScalingRows>, _ n: Int, _ pick: RowPick = .inOrder, keeping kept: Any? = nil
  ) -> Timed {
    var rows = pick.rows(n)
    return Timed { units in
      for _ in 0..<units { store.send(rowAction(rows.next())) }
      return withExtendedLifetime(kept) { store.state.rows[0].count }
    }
  }

  /// S1's floor at `n` rows: the row found by a dictionary in a plain array, changed, the rows
  /// picked as `pick` says.
  static func rowFloor(_ n: Int, _ pick: RowPick = .inOrder) -> Timed {
    var rows = (0..<n).map { ScalingRow.State(id: $0) }
    let positions = Dictionary(uniqueKeysWithValues: (0..<n).map { ($0, $0) })
    var source = pick.rows(n)
    return Timed { units in
      var total = 0
      for _ in 0..<units { total &+= floorRowIncrement(&rows, positions, source.next()) }
      return total
    }
  }

  static func rowStores(_ store: StoreOf<ScalingRows>, _ n: Int) -> [StoreOf<ScalingRow>] {
    (0..<n).map { store.scope(state: \.rows, action: ScalingRows.Action.rows, id: $0)! }
  }

  /// S1: a row action through `forEach` on a root store of N rows, no row store held. S1s: the
  /// same with a scoped store held for every row.
  static func s1() async -> [ScalingResult] {
    let sizes = rowCounts
    let plain = sizes.map { n in
      rowSends(Store(initialState: ScalingRows.State(count: n)) { ScalingRows() }, n)
    }
    let held = sizes.map { n in
      let store = Store(initialState: ScalingRows.State(count: n)) { ScalingRows() }
      return rowSends(store, n, keeping: rowStores(store, n))
    }
    let floors = sizes.map { rowFloor($0) }
    let timings = await measureInterleaved(plain + held + floors)
    let floor = Array(timings[6..<9])
    return [
      ScalingResult(
        id: "S1", name: "forEach row action, no row store held", sizes: sizes,
        run: Array(timings[0..<3]), floor: floor,
        note: "floor: the row found by a dictionary in a plain array, changed"),
      ScalingResult(
        id: "S1s", name: "forEach row action, a store held per row", sizes: sizes,
        run: Array(timings[3..<6]), floor: floor,
        note: "scope(state: \\.rows, action:, id:) for every row, held while timed; floor: S1's"),
    ]
  }

  /// S3: a send from the deepest of D nested scoped stores. S3r: the root send of the action
  /// that reaches the same level, on the same store (the scoped stores held), S3's floor for
  /// its growth.
  /// S3's two store cases for a feature that holds itself `depth` levels deep, at each depth:
  /// a send from the deepest of the D scoped stores (`scope` scopes one level), and the root
  /// send of the same leaf's action (`action(depth)`) with the stores held.
  @MainActor
  static func nestedCases<Feature: Reducer>(
    _ feature: @escaping () -> Feature, state: (Int) -> Feature.State,
    scope: (Store<Feature.State, Feature.Action>) -> Store<Feature.State, Feature.Action>?,
    action: (Int) -> Feature.Action, leafAction: Feature.Action,
    count: @escaping (Feature.State) -> Int
  ) -> (leaves: [Timed], roots: [Timed]) {
    var cases: (leaves: [Timed], roots: [Timed]) = ([], [])
    for depth in depths {
      let store = Store(initialState: state(depth), reducer: feature)
      var scoped = [store]
      for _ in 0..<depth { scoped.append(scope(scoped.last!)!) }
      let chain = scoped
      let leaf = chain.last!
      cases.leaves.append(
        Timed { units in
          for _ in 0..<units { leaf.send(leafAction) }
          return withExtendedLifetime(chain) { count(leaf.state) }
        })
      let rootAction = action(depth)
      cases.roots.append(
        Timed { units in
          for _ in 0..<units { store.send(rootAction) }
          return withExtendedLifetime(chain) { count(leaf.state) }
        })
    }
    return cases
  }

  /// S3's floors, at each depth: the step `step(depth)` makes, run on a plain value `depth`
  /// levels deep (`state`).
  @MainActor
  static func plainCases<Value>(
    _ state: (Int) -> Value, _ step: (Int) -> (inout Value) -> Int
  ) -> [Timed] {
    depths.map { depth in
      var plain = state(depth)
      let run = step(depth)
      return Timed { units in
        var total = 0
        for _ in 0..<units { total &+= run(&plain) }
        return total
      }
    }
  }

  static func s3() async -> [ScalingResult] {
    let (leaves, roots) = nestedCases(
      Nested.init, state: Nested.State.init(depth:),
      scope: { $0.scope(state: \.child, action: Nested.Action.child) }, action: nestedAction,
      leafAction: .increment, count: \.count)
    let (presentedLeaves, presentedRoots) = nestedCases(
      PresentingNested.init, state: PresentingNested.State.init(depth:),
      scope: { $0.scope(state: \.$child, action: PresentingNested.Action.child) },
      action: presentingNestedAction, leafAction: .increment, count: \.count)
    // The root cases' actions are built once per depth, as the stores' root sends get theirs;
    // S3pl's floor builds its action at every step, as a leaf store's send embeds its action.
    let floors = plainCases(Nested.State.init(depth:)) { depth in
      let action = nestedAction(depth)
      return { floorNestedIncrement(&$0, action) }
    }
    let presentedFloors = plainCases(PlainPresenting.init(depth:)) { depth in
      let action = plainPresentingAction(depth)
      return { floorPresentingNestedIncrement(&$0, action) }
    }
    let presentedLeafFloors = plainCases(PlainPresenting.init(depth:)) { depth in
      { floorPresentingNestedLeafIncrement(&$0, depth) }
    }
    let count = depths.count
    let timings = await measureInterleaved(
      leaves + roots + floors + presentedRoots + presentedFloors + presentedLeaves
        + presentedLeafFloors)
    let leaf = Array(timings[0..<count])
    let root = Array(timings[count..<(2 * count)])
    let presentedRoot = Array(timings[(3 * count)..<(4 * count)])
    let presented = ScalingResult(
      id: "S3p", name: "root send through D nested presentations", sizes: depths,
      run: presentedRoot,
      floor: Array(timings[(4 * count)..<(5 * count)]),
      note: "a feature presenting itself (@PresentationState, the presentation ifLet), the D "
        + "presented stores held; floor: the same value changed D levels down, routed by hand")
    let rootRow = ScalingResult(
      id: "S3r", name: "root send reaching depth D (ifLet chain)", sizes: depths, run: root,
      floor: Array(timings[(2 * count)..<(3 * count)]),
      note: "on S3's stores, the D scoped stores held; floor: a plain recursive value changed "
        + "D levels down, the action routed by hand")
    let leafGrowth = leaf.last!.nsPerOp / max(leaf.first!.nsPerOp, 0.01)
    let ratio = leafGrowth / max(rootRow.growth, 0.01)
    return [
      ScalingResult(
        id: "S3", name: "send from the store scoped D deep (ifLet chain)", sizes: depths,
        run: leaf, floor: root,
        note: "floor: S3r, the root send of the same leaf's action on the same store; target: "
          + String(format: "growth ≤ 1.5× S3r's, here %.2f×", ratio)),
      rootRow, presented,
      ScalingResult(
        id: "S3pl", name: "send from the store presented D deep", sizes: depths,
        run: Array(timings[(5 * count)..<(6 * count)]), floor: Array(timings[(6 * count)...]),
        note: "the leaf's action embedded by the D presented stores, then S3p's root send, then "
          + "the leaf store's state read again; floor: the action built from the leaf up (a box "
          + "a level) and routed by hand"),
    ]
  }

  /// S4b: the first `scope(state:action:id:)` of each row of a fresh store, the stores kept.
  static func s4b() async -> ScalingResult {
    let sizes = rowCounts
    var cases: [Timed] = []
    var floors: [Timed] = []
    for n in sizes {
      let initial = ScalingRows.State(count: n)
      var stores: [StoreOf<ScalingRows>] = []
      var kept: [StoreOf<ScalingRow>] = []
      cases.append(
        Timed(operationsPerUnit: n) { _ in
          for store in stores {
            for id in 0..<n {
              kept.append(store.scope(state: \.rows, action: ScalingRows.Action.rows, id: id)!)
            }
          }
          return kept.count
        } prepare: { units in
          kept.removeAll(keepingCapacity: true)
          stores = (0..<units).map { _ in Store(initialState: initial) { ScalingRows() } }
        })
      var objects: [[Int: PlainRowObject]] = []
      floors.append(
        Timed(operationsPerUnit: n) { units in
          var total = 0
          for unit in 0..<units {
            for id in 0..<n { total &+= floorMakeRowObject(&objects[unit], id) }
          }
          return total
        } prepare: { units in
          objects = Array(repeating: [:], count: units)
        })
    }
    let timings = await measureInterleaved(cases + floors)
    return ScalingResult(
      id: "S4b", name: "first scope(state:action:id:) per row, kept", sizes: sizes,
      run: Array(timings[0..<3]), floor: Array(timings[3...]),
      note: "per store made, each repetition on fresh root stores built untimed; floor: a small "
        + "object made and inserted into a dictionary")
  }

  /// The timed cases of S5v and S5o at one size, the floor's, and how to count the wakes.
  private struct S5Case {
    var values: Timed
    var observations: Timed
    var floor: Timed
    var countWakes: () async -> (values: Double, observations: Double, floor: Double)
    var consumers: [Task<Void, Never>]
  }

  /// S5v and S5o: M observers of M different rows, row 0 changing.
  static func s5() async -> [ScalingResult] {
    var cases: [S5Case] = []
    for m in observerCounts { cases.append(await s5Case(m)) }
    let timings = await measureInterleaved(
      cases.map(\.values) + cases.map(\.observations) + cases.map(\.floor))
    var woken: [(values: Double, observations: Double, floor: Double)] = []
    for item in cases { woken.append(await item.countWakes()) }
    let consumers = cases.flatMap(\.consumers)
    for consumer in consumers { consumer.cancel() }
    for consumer in consumers { await consumer.value }
    return s5Results(timings: timings, woken: woken)
  }

  private static func s5Case(_ m: Int) async -> S5Case {
    var consumers: [Task<Void, Never>] = []
    // S5v: a `values(of:)` sequence per row store, each iterated by a `for await` loop on a
    // main-actor task, parked on its next value. The sequence's `next()` is nonisolated, so a
    // value reaches its loop through a hop off the main actor and back: each send is timed
    // alone, and the wait for row 0's loop to have its value is taken off the timing.
    let valueStore = Store(initialState: ScalingRows.State(count: m)) { ScalingRows() }
    let received = WakeCounter()
    let otherValues = WakeCounter()
    for (index, row) in rowStores(valueStore, m).enumerated() {
      let counter = index == 0 ? received : otherValues
      consumers.append(
        Task { @MainActor in
          for await _ in row.values(of: { $0.count }) { counter.count &+= 1 }
        })
    }
    await waitUntil { received.count == 1 && otherValues.count == m - 1 }
    let values = Timed { units in
      for _ in 0..<units {
        let expected = received.count + 1
        valueStore.send(rowAction(0))
        await untimed { await waitUntil { received.count >= expected } }
      }
      return received.count
    }

    // S5o: `withObservationTracking` of each row store's state, observed again when told.
    let observedStore = Store(initialState: ScalingRows.State(count: m)) { ScalingRows() }
    let observedRows = rowStores(observedStore, m)
    let observed = WakeCounter()
    for row in observedRows { observeAgain(observed) { row.state.count } }
    let observations = Timed { units in
      for _ in 0..<units { observedStore.send(rowAction(0)) }
      return withExtendedLifetime(observedRows) { observed.count }
    }

    let models = (0..<m).map { _ in PlainRowModel() }
    let floorWakes = WakeCounter()
    for model in models { observeAgain(floorWakes) { model.count } }
    let floor = Timed { units in
      var total = 0
      for _ in 0..<units { total &+= floorObservedRowChange(models[0]) }
      return total
    }

    let countWakes = { () async -> (values: Double, observations: Double, floor: Double) in
      let changes = 10
      await letQueuedTasksRun()
      let valuesBefore = received.count + otherValues.count
      let observedBefore = observed.count
      let floorBefore = floorWakes.count
      for _ in 0..<changes {
        let expected = received.count + 1
        valueStore.send(rowAction(0))
        await waitUntil { received.count >= expected }
        observedStore.send(rowAction(0))
        _ = floorObservedRowChange(models[0])
        await letQueuedTasksRun()
      }
      let valuesWoken = Double(received.count + otherValues.count - valuesBefore)
      let observedWoken = Double(observed.count - observedBefore)
      let floorWoken = Double(floorWakes.count - floorBefore)
      return (
        valuesWoken / Double(changes), observedWoken / Double(changes),
        floorWoken / Double(changes)
      )
    }
    return S5Case(
      values: values, observations: observations, floor: floor, countWakes: countWakes,
      consumers: consumers)
  }

  private static func s5Results(
    timings: [(nsPerOp: Double, checksum: Int)],
    woken: [(values: Double, observations: Double, floor: Double)]
  ) -> [ScalingResult] {
    func list(_ numbers: [Double]) -> String {
      numbers.map { String(format: "%g", $0) }.joined(separator: ", ")
    }
    let sizes = observerCounts.map(String.init).joined(separator: ", ")
    let floorWoken = list(woken.map(\.floor))
    let count = observerCounts.count
    let floor = Array(timings[(2 * count)...])
    var valuesNote = "observers woken per change at M = \(sizes): \(list(woken.map(\.values))) "
    valuesNote += "(floor \(floorWoken)); each sequence is a for-await loop on a main-actor task; "
    valuesNote +=
      "timed: the send, with every sequence's check and row 0's loop resumed; not timed: "
    valuesNote +=
      "the wait for row 0's loop to have the value (next() is nonisolated: a hop off the "
    valuesNote +=
      "main actor and back); floor: M @Observable rows under withObservationTracking, one "
    valuesNote += "changed"
    if missedWaits > 0 { valuesNote += "; \(missedWaits) waits gave up after 1 s" }
    var observationsNote = "observers woken per change at M = \(sizes): "
    observationsNote += "\(list(woken.map(\.observations))) (floor \(floorWoken)); each observer "
    observationsNote += "counts and observes again in onChange, inside the send; floor: M "
    observationsNote += "@Observable rows under withObservationTracking, one changed"
    return [
      ScalingResult(
        id: "S5v", name: "row 0 changes, M rows observed by values(of:)",
        sizes: observerCounts, run: Array(timings[0..<count]), floor: floor, note: valuesNote),
      ScalingResult(
        id: "S5o", name: "row 0 changes, M row stores under withObservationTracking",
        sizes: observerCounts, run: Array(timings[count..<(2 * count)]), floor: floor,
        note: observationsNote),
    ]
  }

  /// S5w: M row stores, each under `withObservationTracking` and observed again when told, a
  /// row picked at random changed per send (row 0 in S5o): the observer woken is a different
  /// one at each send, as when a user taps anywhere in a list.
  static func s5w() async -> ScalingResult {
    var cases: [Timed] = []
    var floors: [Timed] = []
    // Per size: the wakes of Cascade's observers and of the floor's, and the sends of each.
    var counters: [(woken: WakeCounter, floorWoken: WakeCounter, sent: WakeCounter)] = []
    for m in observerCounts {
      let store = Store(initialState: ScalingRows.State(count: m)) { ScalingRows() }
      let rows = rowStores(store, m)
      let woken = WakeCounter()
      let sent = WakeCounter()
      for row in rows { observeAgain(woken) { row.state.count } }
      var picks = RowPick.random.rows(m)
      cases.append(
        Timed { units in
          for _ in 0..<units { store.send(rowAction(picks.next())) }
          sent.count &+= units
          return withExtendedLifetime(rows) { woken.count }
        })
      let models = (0..<m).map { _ in PlainRowModel() }
      let floorWoken = WakeCounter()
      for model in models { observeAgain(floorWoken) { model.count } }
      var floorPicks = RowPick.random.rows(m)
      floors.append(
        Timed { units in
          var total = 0
          for _ in 0..<units { total &+= floorObservedRowChange(models[floorPicks.next()]) }
          return total
        })
      counters.append((woken, floorWoken, sent))
    }
    let count = observerCounts.count
    let timings = await measureInterleaved(cases + floors)
    // Each observer of the changed row, and only it, wakes: one per send, in both.
    let perSend = counters.map {
      String(format: "%g", Double($0.woken.count) / Double($0.sent.count))
    }
    let sizes = observerCounts.map(String.init).joined(separator: ", ")
    return ScalingResult(
      id: "S5w", name: "a random row changes, M row stores under withObservationTracking",
      sizes: observerCounts, run: Array(timings[0..<count]), floor: Array(timings[count...]),
      note: "observers woken per send at M = \(sizes): \(perSend.joined(separator: ", ")); each "
        + "observer counts and observes again in onChange, inside the send; the row picked by "
        + "xorshift, the same sequence in Cascade and the floor; floor: M @Observable rows "
        + "under withObservationTracking, the same row changed")
  }

  /// S6 (no `Shared` has existed in the process) and S6x (one has): a test store step, a send
  /// with an exhaustive assertion of a one-row change, on N rows.
  static func s6(withShared: Bool) async -> ScalingResult {
    if withShared, keptShared == nil { keptShared = Shared(value: 0) }
    let sharedExisted = _sharedRootCount.withLock { $0 } > 0
    var cases: [Timed] = []
    var floors: [Timed] = []
    for n in testRowCounts {
      let store = TestStore(initialState: ScalingRows.State(count: n)) { ScalingRows() }
      var id = 0
      cases.append(
        Timed { units in
          var total = 0
          for _ in 0..<units {
            let row = id
            await store.send(rowAction(row)) { $0.rows[id: row]!.count &+= 1 }
            total &+= store.state.rows[row].count
            nextRow(&id, n)
          }
          return total
        })
      var actual = (0..<n).map { ScalingRow.State(id: $0) }
      var expected = (0..<n).map { ScalingRow.State(id: $0) }
      var index = 0
      floors.append(
        Timed { units in
          var total = 0
          for _ in 0..<units {
            total &+= floorAssertedRowIncrement(&actual, &expected, index)
            nextRow(&index, n)
          }
          return total
        })
    }
    let count = testRowCounts.count
    let timings = await measureInterleaved(cases + floors)
    let floor = "floor: the row changed in a plain array and in its expected copy, the two compared"
    let shared =
      switch (withShared, sharedExisted) {
      case (false, false): "no Shared had been made in the process; "
      case (false, true): "NOT the no-Shared case: a Shared existed before S6 ran; "
      case (true, _): "a Shared(value:) made and kept alive before, none in the state; "
      }
    return ScalingResult(
      id: withShared ? "S6x" : "S6",
      name: "test store send, exhaustive" + (withShared ? ", a Shared exists" : ", no Shared"),
      sizes: testRowCounts, run: Array(timings[0..<count]), floor: Array(timings[count...]),
      note: shared + floor)
  }

  /// S7 and its variants: a row action on a store recorded by an inspectable recorder, the
  /// rows picked in order (S7), at random (S7r), always the first (S7f) or always the last
  /// (S7l).
  static let recordedRowPicks: [(id: String, pick: RowPick)] = [
    ("S7", .inOrder), ("S7r", .random), ("S7f", .first), ("S7l", .last),
  ]

  static func s7(_ id: String, _ pick: RowPick) async -> ScalingResult {
    var cases: [Timed] = []
    var recorders: [Recorder<ScalingRows.State, ScalingRows.Action>] = []
    for n in recordedRowCounts {
      let recorder = Recorder<ScalingRows.State, ScalingRows.Action>(inspectable: true)
      let store = Store(initialState: ScalingRows.State(count: n)) {
        ScalingRows().record(into: recorder)
      }
      recorders.append(recorder)
      cases.append(rowSends(store, n, pick))
    }
    // The same sends on a store no recorder watches, measured in the same run: what recording
    // adds to an action is the difference.
    let unrecorded = recordedRowCounts.map { n in
      rowSends(Store(initialState: ScalingRows.State(count: n)) { ScalingRows() }, n, pick)
    }
    let count = recordedRowCounts.count
    let measured = await measureInterleaved(
      cases + recordedRowCounts.map { rowFloor($0, pick) } + unrecorded)
    let timings = Array(measured[0..<(2 * count)])
    let plain = measured[(2 * count)...].map(\.nsPerOp)
    let overhead = zip(timings[0..<count], plain).map { recorded, plain in
      "\(Int((recorded.nsPerOp - plain).rounded())) ns (\(Int((recorded.nsPerOp / plain).rounded()))× "
        + "the send's \(Int(plain.rounded())) ns)"
    }
    // What the recorder keeps per action, as text: the heap's bytes in use are out of reach
    // (Glibc's module has no `mallinfo2`), so this counts the UTF-8 of each step's strings
    // (action, case path, changed lines...), not the strings' and arrays' own overhead.
    let kept = recorders.map { recorder -> Int in
      let steps = recorder.recording.session?.steps ?? []
      let bytes = steps.reduce(0) { total, step in
        let strings =
          [step.action, step.casePath, step.screen] + step.fields + step.shared
          + step.changes.flatMap(\.inserted)
        return total + strings.reduce(0) { $0 + $1.utf8.count }
      }
      return bytes / max(steps.count, 1)
    }
    let sizes = recordedRowCounts.map(String.init).joined(separator: ", ")
    return ScalingResult(
      id: id, name: "send recorded by Recorder(inspectable: true), \(pick.rawValue)",
      sizes: recordedRowCounts, run: Array(timings[0..<count]), floor: Array(timings[count...]),
      note: "recording adds \(overhead.joined(separator: ", ")) an action at N = \(sizes); "
        + "the recording keeps \(kept.map(String.init).joined(separator: ", ")) bytes of text "
        + "per action (the UTF-8 of its steps' strings; object overhead not counted: glibc's "
        + "heap statistics are not reachable from Swift here); floor: S1's, the same rows")
  }

  /// S8: a send whose reducer writes one element of a `@Shared` array.
  static func s8() async -> ScalingResult {
    var cases: [Timed] = []
    var floors: [Timed] = []
    for n in sharedArraySizes {
      let store = Store(
        initialState: SharedArrayWriter.State(values: Shared(value: Array(repeating: 0, count: n)))
      ) { SharedArrayWriter() }
      var index = 0
      cases.append(
        Timed { units in
          for _ in 0..<units {
            store.send(.write(index))
            nextRow(&index, n)
          }
          return store.state.values[0]
        })
      let holder = PlainArrayHolder(values: Array(repeating: 0, count: n))
      var floorIndex = 0
      floors.append(
        Timed { units in
          var total = 0
          for _ in 0..<units {
            total &+= floorHeldArrayWrite(holder, floorIndex)
            nextRow(&floorIndex, n)
          }
          return total
        })
    }
    let count = sharedArraySizes.count
    let timings = await measureInterleaved(cases + floors)
    return ScalingResult(
      id: "S8", name: "send writing one element of a @Shared array", sizes: sharedArraySizes,
      run: Array(timings[0..<count]), floor: Array(timings[count...]),
      note: "withLock from the reducer; floor: one element of a plain array held in a class")
  }
}
