import CascadeTesting
import Testing

@testable import Cascade

// Issue 20, point 7: features that contain themselves, as TCA's recursion case studies do.

/// A feature that presents itself, to any depth.
private struct Node: Reducer {
  struct State: Equatable, Sendable {
    var depth = 0
    var ticks = 0
    @PresentationState var child: Node.State?
  }
  indirect enum Action: Equatable, Sendable {
    case child(PresentationAction<Action>)
    case present
    case start
    case tick
    case close
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .present:
        state.child = Node.State(depth: state.depth + 1)
      case .start:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      case .tick:
        state.ticks += 1
      case .close:
        return .run { _ in await dismiss() }
      case .child:
        break
      }
      return .none
    }
    .ifLet(\.$child, action: Action.child) { Node() }
  }
}

/// A tree of rows, each holding rows of its own type.
private struct TreeNode: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var rows: IdentifiedArrayOf<TreeNode.State> = []
    var ticks = 0
  }
  indirect enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Action>)
    case add(Int)
    case remove(Int)
    case start
    case tick
  }
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .add(id):
        state.rows.append(TreeNode.State(id: id))
      case let .remove(id):
        state.rows.remove(id: id)
      case .start:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      case .tick:
        state.ticks += 1
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rows) { TreeNode() }
  }
}

@MainActor
@Suite(.hangGuard)
struct RecursiveFeatureTests {
  let clock = TestClock()

  // MARK: Issue 20, point 7: a feature that presents itself

  @Test func aRecursiveFeatureDismissesExactlyTheLevelAndBelow() async {
    let store = TestStore(initialState: Node.State()) {
      Node()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.present) { $0.child = Node.State(depth: 1) }
    await store.send(.child(.presented(.present))) { $0.child?.child = Node.State(depth: 2) }
    await store.send(.child(.presented(.child(.presented(.present))))) {
      $0.child?.child?.child = Node.State(depth: 3)
    }
    // Level 0 ticks at 1 s, the deeper levels at 1.5 s: one order, every run.
    await store.send(.start)
    await clock.advance(by: .milliseconds(500))
    await store.send(.child(.presented(.start)))
    await store.send(.child(.presented(.child(.presented(.start)))))
    await store.send(.child(.presented(.child(.presented(.child(.presented(.start)))))))
    // Level 2 dismisses itself: it and level 3 go, with their effects.
    await store.send(.child(.presented(.child(.presented(.close)))))
    await store.receive(.child(.presented(.child(.dismiss)))) { $0.child?.child = nil }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.tick) { $0.ticks = 1 }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.child(.presented(.tick))) { $0.child?.ticks = 1 }
    await store.finish()
  }

  /// `depth` levels presented one from the other, each through the store of the level above,
  /// and the stores of those levels, first level first.
  private func presentedStores(_ store: StoreOf<Node>, depth: Int) throws -> [StoreOf<Node>] {
    var stores: [StoreOf<Node>] = []
    for _ in 0..<depth {
      let parent = stores.last ?? store
      parent.send(.present)
      stores.append(try #require(parent.scope(state: \.$child, action: Node.Action.child)))
    }
    return stores
  }

  @Test func aStoreThreePresentationsDownKeepsWhatItsOwnSendsLeftOnceItsParentsGo() throws {
    let store = Store(initialState: Node.State()) { Node() }
    let stores = try presentedStores(store, depth: 3)
    let (first, second, third) = (stores[0], stores[1], stores[2])
    // The parents' stores are read now, and not again: what they last read is the state
    // before the ticks.
    #expect(first.state.child?.child?.ticks == 0)
    #expect(second.state.child?.ticks == 0)
    third.send(.tick)
    third.send(.tick)
    #expect(third.state.ticks == 2)
    #expect(store.state.child?.child?.child?.ticks == 2)

    store.send(.child(.dismiss))
    #expect(store.state.child == nil)
    // The deepest store reads on through parents that are gone: it keeps the value it last
    // had, the one its own sends left, not the older one its parents' stores last read.
    #expect(third.state.ticks == 2)
    #expect(third.state.depth == 3)
    // Each parent's store keeps what it last read itself.
    #expect(second.state.depth == 2)
    #expect(first.state.depth == 1)
  }

  // TCA's ScopeCacheTests.testOptionalScope_CachedStore, for a presentation: scoped from a
  // store scoped to the whole state, the presented child's store reads and sends as usual.
  @Test func aPresentedStoreScopedFromAStoreOfTheWholeStateSendsToItsChild() throws {
    let store = Store(initialState: Node.State()) { Node() }
    store.send(.present)
    let whole = store.scope(state: \.self, action: { $0 })
    let child = try #require(whole.scope(state: \.$child, action: Node.Action.child))
    child.send(.tick)
    #expect(store.state.child?.ticks == 1)
    #expect(child.state.ticks == 1)
    #expect(whole.scope(state: \.$child, action: Node.Action.child) === child)
  }

  @Test func aStoreTwoPresentationsDownReadsItsParentsChangesAndTheyReadItsOwn() throws {
    let store = Store(initialState: Node.State()) { Node() }
    let stores = try presentedStores(store, depth: 2)
    let (first, second) = (stores[0], stores[1])
    second.send(.tick)
    #expect(first.state.child?.ticks == 1)
    store.send(.child(.presented(.child(.presented(.tick)))))
    #expect(second.state.ticks == 2)
    #expect(first.state.child?.ticks == 2)
  }

  /// The same script as `aRecursiveFeatureDismissesExactlyTheLevelAndBelow`, up to the
  /// dismissal, under a real store: the same levels go.
  @Test func aRealStoreDismissesExactlyTheLevelAndBelowToo() async {
    let store = Store(initialState: Node.State()) {
      Node()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.present)
    store.send(.child(.presented(.present)))
    store.send(.child(.presented(.child(.presented(.present)))))
    #expect(store.state.child?.child?.child?.depth == 3)
    await store.send(.child(.presented(.child(.presented(.close))))).finish()
    #expect(store.state.child?.depth == 1)
    #expect(store.state.child?.child == nil)
  }

  @Test func dismissingAParentCancelsItsGrandchildsEffects() async {
    let store = TestStore(initialState: Node.State()) {
      Node()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.present) { $0.child = Node.State(depth: 1) }
    await store.send(.child(.presented(.present))) { $0.child?.child = Node.State(depth: 2) }
    await store.send(.child(.presented(.child(.presented(.start)))))
    await store.send(.child(.dismiss)) { $0.child = nil }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  // Issue 20, point 7: a tree of rows of its own type; removing a level tears it down.
  @Test func aTreeOfRowsRemovesExactlyTheRemovedBranch() async {
    let store = TestStore(initialState: TreeNode.State(id: 0)) {
      TreeNode()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.add(1)) { $0.rows.append(TreeNode.State(id: 1)) }
    await store.send(.add(2)) { $0.rows.append(TreeNode.State(id: 2)) }
    await store.send(.rows(.element(id: 1, action: .add(11)))) {
      $0.rows[id: 1]?.rows.append(TreeNode.State(id: 11))
    }
    await store.send(.rows(.element(id: 1, action: .rows(.element(id: 11, action: .start)))))
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.rows(.element(id: 2, action: .start)))
    await store.send(.remove(1)) { $0.rows.remove(id: 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    await store.finish()
  }
}
