import CascadeTestSupport
import Testing

@testable import Cascade

/// Contract 3: scoped stores are cached views on the root.
private struct Leaf: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var value = 0
  }
  enum Action: Equatable, Sendable {
    case add(Int)
    case addLater(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(amount):
      state.value += amount
      return .none
    case let .addLater(amount):
      return .run { send in
        await Task.yield()
        await send(.add(amount))
      }
    }
  }
}

private struct Middle: Reducer {
  struct State: Equatable, Sendable {
    var leaf = Leaf.State()
    var optional: Leaf.State?
    var rows: IdentifiedArrayOf<Leaf.State> = []
  }
  enum Action: Equatable, Sendable {
    case leaf(Leaf.Action)
    case optional(Leaf.Action)
    case rows(IdentifiedActionOf<Leaf>)
    case setOptional(Leaf.State?)
    case removeRow(Int)
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.leaf, action: Action.leaf) { Leaf() }
    Reduce { state, action in
      switch action {
      case let .setOptional(value): state.optional = value
      case let .removeRow(id): state.rows.remove(id: id)
      default: break
      }
      return .none
    }
    .ifLet(\.optional, action: Action.optional) { Leaf() }
    .forEach(\.rows, action: Action.rows) { Leaf() }
  }
}

private struct Root: Reducer {
  struct State: Equatable, Sendable { var middle = Middle.State() }
  enum Action: Equatable, Sendable { case middle(Middle.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.middle, action: Action.middle) { Middle() }
  }
}

/// A feature holding an optional child of its own kind, `depth` levels deep.
private struct Chain: Reducer {
  struct State: Equatable, Sendable {
    var value = 0
    var next: [State] = []
    var child: State? {
      get { next.first }
      set { next = newValue.map { [$0] } ?? [] }
    }
    init(depth: Int) { if depth > 0 { child = State(depth: depth - 1) } }
  }
  indirect enum Action: Equatable, Sendable {
    case add(Int)
    case cut
    case child(Action)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .add(amount): state.value += amount
      case .cut: state.child = nil
      case .child: break
      }
      return .none
    }
    .ifLet(\.child, action: Action.child) { Chain() }
  }
}

@MainActor
@Suite struct StoreScopeTests {
  @Test func scopedStoresReadThroughTheRootAndSendToIt() {
    let store = Store(initialState: Root.State()) { Root() }
    let middle = store.scope(state: \.middle, action: Root.Action.middle)
    let leaf = middle.scope(state: \.leaf, action: Middle.Action.leaf)
    leaf.send(.add(5))
    #expect(leaf.value == 5)
    #expect(middle.leaf.value == 5)
    #expect(store.middle.leaf.value == 5)
    store.send(.middle(.leaf(.add(1))))
    #expect(leaf.value == 6)  // no copy: a view on the root
  }

  @Test func scopingTheSameWayReturnsTheSameStore() {
    // The same way from the same place (a view body evaluated again): the same store.
    let store = Store(initialState: Root.State()) { Root() }
    func middle() -> Store<Middle.State, Middle.Action> {
      store.scope(state: \.middle, action: Root.Action.middle)
    }
    let first = middle()
    let second = middle()
    #expect(first === second)
    func leaf(_ middle: Store<Middle.State, Middle.Action>) -> Store<Leaf.State, Leaf.Action> {
      middle.scope(state: \.leaf, action: Middle.Action.leaf)
    }
    let leafA = leaf(first)
    let leafB = leaf(second)
    #expect(leafA === leafB)
    let other = first.scope(state: \.leaf.value, action: { (amount: Int) in .leaf(.add(amount)) })
    #expect(other !== leafA as AnyObject)
  }

  @Test func theCacheHoldsAChildStoreWeaklyAndScopingAgainWorks() {
    let store = Store(initialState: Root.State()) { Root() }
    func middle() -> Store<Middle.State, Middle.Action> {
      store.scope(state: \.middle, action: Root.Action.middle)
    }
    weak var released: Store<Middle.State, Middle.Action>?
    do {
      let child = middle()
      released = child
      child.send(.leaf(.add(2)))
      #expect(middle() === child)
    }
    #expect(released == nil)  // nobody held it: the cache did not keep it alive
    let again = middle()
    again.send(.leaf(.add(3)))
    #expect(store.middle.leaf.value == 5)
    #expect(middle() === again)
  }

  @Test func optionalChildStores() {
    let store = Store(initialState: Root.State()) { Root() }
    let middle = store.scope(state: \.middle, action: Root.Action.middle)
    func optional() -> Store<Leaf.State, Leaf.Action>? {
      middle.scope(state: \.optional, action: Middle.Action.optional)
    }
    #expect(optional() == nil)
    middle.send(.setOptional(Leaf.State(value: 1)))
    let child = optional()
    #expect(child?.value == 1)
    child?.send(.add(2))
    #expect(store.middle.optional?.value == 3)
    #expect(optional() === child)
    middle.send(.setOptional(nil))
    #expect(child?.value == 3)  // the last value, not a crash
  }

  @Test func elementStores() async {
    var initial = Root.State()
    initial.middle.rows = [Leaf.State(id: 1), Leaf.State(id: 2)]
    let store = Store(initialState: initial) { Root() }
    let middle = store.scope(state: \.middle, action: Root.Action.middle)
    let rows = middle.scope(state: \.rows, action: Middle.Action.rows)
    #expect(rows.map(\.id) == [1, 2])
    rows[1].send(.add(4))
    #expect(store.middle.rows[id: 2]?.value == 4)
    func row(_ id: Int) -> Store<Leaf.State, Leaf.Action>? {
      middle.scope(state: \.rows, action: Middle.Action.rows, id: id)
    }
    #expect(row(2) === row(2))
    #expect(row(2) !== rows[1])  // scoped from another place: a store of its own
    #expect(middle.scope(state: \.rows, action: Middle.Action.rows, id: 9) == nil)

    middle.send(.removeRow(2))
    #expect(rows[1].value == 4)  // the last value
    let (_, warnings) = await RuntimeWarnings.capturing { rows[1].send(.add(1)) }
    #expect(warnings.count == 1)  // reported by forEach, not a crash
  }

  // Issue 37 (S1s, S3): a store whose state can disappear keeps the value it last read or
  // last sent, as TCA's if-let stores do; other stores' sends never touch it.
  @Test func aGoneRowsStoreKeepsWhatItLastReadOrSent() {
    var initial = Root.State()
    initial.middle.rows = [Leaf.State(id: 1), Leaf.State(id: 2)]
    let store = Store(initialState: initial) { Root() }
    let middle = store.scope(state: \.middle, action: Root.Action.middle)
    let row = middle.scope(state: \.rows, action: Middle.Action.rows, id: 2)!
    // Present: always the live value, whoever changed it.
    store.send(.middle(.rows(.element(id: 2, action: .add(3)))))
    #expect(row.value == 3)
    // Changed by another store and never read again: gone, it shows what it last read.
    store.send(.middle(.rows(.element(id: 2, action: .add(4)))))
    middle.send(.removeRow(2))
    #expect(row.value == 3)

    let other = middle.scope(state: \.rows, action: Middle.Action.rows, id: 1)!
    other.send(.add(5))  // sent through it: it read the row as the send left it
    middle.send(.removeRow(1))
    #expect(other.value == 5)
  }

  @Test func aStoreTenOptionalsDeepReadsThroughItsParents() {
    var state = Chain.State(depth: 10)
    state.value = 1
    let store = Store(initialState: state) { Chain() }
    var leaf = store
    for _ in 0..<10 { leaf = leaf.scope(state: \.child, action: Chain.Action.child)! }
    leaf.send(.add(2))
    #expect(leaf.value == 2)
    var reached = store.state
    for _ in 0..<10 { reached = reached.child! }
    #expect(reached.value == 2)
    store.send(.cut)
    #expect(leaf.value == 2)  // the last value, not a crash
  }

  @Test func scopedValuesStream() async {
    let store = Store(initialState: Root.State()) { Root() }
    let leaf = store.scope(state: \.middle, action: Root.Action.middle)
      .scope(state: \.leaf, action: Middle.Action.leaf)
    var values = leaf.values(of: \.value).makeAsyncIterator()
    #expect(
      await withDeadline("the leaf's value 0") { await values.next(isolation: #isolation) } == 0)
    leaf.send(.add(3))
    store.send(.middle(.setOptional(nil)))  // no change to the leaf: nothing emitted
    leaf.send(.add(1))
    #expect(
      await withDeadline("the leaf's value 3") { await values.next(isolation: #isolation) } == 3)
    #expect(
      await withDeadline("the leaf's value 4") { await values.next(isolation: #isolation) } == 4)
  }

  @Test func aChildStoreSendHeardByAnObserverThatSendsThroughAnotherChildStore() {
    var initial = Root.State()
    initial.middle.rows = [Leaf.State(id: 1)]
    let store = Store(initialState: initial) { Root() }
    let middle = store.scope(state: \.middle, action: Root.Action.middle)
    let leaf = middle.scope(state: \.leaf, action: Middle.Action.leaf)
    let row = middle.scope(state: \.rows, action: Middle.Action.rows, id: 1)!
    // Each change of the leaf is sent on to the row, through the row's own store, while the
    // leaf's send is still telling observers.
    let link = store.forward({ $0.middle.leaf.value }, to: row, action: { .add($0 * 10) })
    leaf.send(.add(1))
    #expect(store.middle.leaf.value == 1)
    #expect(store.middle.rows[id: 1]?.value == 10)
    leaf.send(.add(2))
    #expect(store.middle.rows[id: 1]?.value == 40)
    // Neither action went to the other's case.
    #expect(store.middle.leaf.value == 3)
    link.cancel()
  }

  @Test func aDeepChildStoresSendReturnsATaskForItsEffects() async {
    let store = Store(initialState: Root.State()) { Root() }
    let leaf = store.scope(state: \.middle, action: Root.Action.middle)
      .scope(state: \.leaf, action: Middle.Action.leaf)
    let task = leaf.send(.addLater(7))
    #expect(leaf.value == 0)
    await task.finish()
    #expect(leaf.value == 7)
    #expect(store.middle.leaf.value == 7)
  }
}
