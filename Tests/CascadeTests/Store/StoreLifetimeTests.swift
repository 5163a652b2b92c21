import CascadeTesting
import Testing

@testable import Cascade

// TCA's StoreLifetimeTests, the parts that apply: a child store outlives the stores it was
// scoped through, and an effect outlives the child store that started it. (Its caching test is
// StoreScopeTests.scopingTheSameWayReturnsTheSameStore; its deinit-cancels-effects tests are
// MemoryManagementTests; its logger and Combine tests have no Cascade counterpart.)

/// A counter whose `.start` answers through an effect once `gate` opens.
private struct Counter: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case tap, start, response }
  let gate: Latch
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      state.count += 1
      return .none
    case .start:
      state.count += 1
      return .run { [gate] send in
        await gate.wait(for: 1)
        await send(.response)
      }
    case .response:
      state.count += 1
      return .none
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable { var child = Counter.State() }
  enum Action: Equatable, Sendable { case child(Counter.Action) }
  let gate: Latch
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Counter(gate: gate) }
  }
}

private struct Grandparent: Reducer {
  struct State: Equatable, Sendable { var child = Parent.State() }
  enum Action: Equatable, Sendable {
    case child(Parent.Action)
    case incrementGrandchild
  }
  let gate: Latch
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Parent(gate: gate) }
    Reduce { state, action in
      if case .incrementGrandchild = action { state.child.child.count += 1 }
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct StoreLifetimeTests {
  @Test func aGrandchildStoreKeepsWorkingAfterItsParentStoreIsDropped() {
    let root = Store(initialState: Grandparent.State()) { Grandparent(gate: Latch()) }
    weak var weakParent: Store<Parent.State, Parent.Action>?
    let grandchild: Store<Counter.State, Counter.Action>
    do {
      let parent = root.scope(state: \.child, action: Grandparent.Action.child)
      weakParent = parent
      grandchild = parent.scope(state: \.child, action: Parent.Action.child)
      grandchild.send(.tap)
      #expect(parent.child.count == 1)
    }
    // The grandchild holds the store it was scoped from: nothing it relies on went away.
    #expect(weakParent != nil)
    grandchild.send(.tap)
    #expect(root.child.child.count == 2)
    #expect(grandchild.count == 2)
    root.send(.incrementGrandchild)
    #expect(grandchild.count == 3)
  }

  @Test func anEffectOutlivesTheChildStoreThatStartedIt() async {
    let gate = Latch()
    let root = Store(initialState: Parent.State()) { Parent(gate: gate) }
    weak var weakChild: Store<Counter.State, Counter.Action>?
    let task: StoreTask
    do {
      let child = root.scope(state: \.child, action: Parent.Action.child)
      weakChild = child
      task = child.send(.start)
      #expect(root.child.count == 1)
    }
    #expect(weakChild == nil)  // released: the effect belongs to the root
    gate.signal()
    await task.finish()
    #expect(root.child.count == 2)
  }

  @Test func theSameFeatureUnderATestStore() async {
    let gate = Latch()
    let store = TestStore(initialState: Parent.State()) { Parent(gate: gate) }
    await store.send(.child(.start)) { $0.child.count = 1 }
    gate.signal()
    await store.receive(.child(.response)) { $0.child.count = 2 }
  }
}
