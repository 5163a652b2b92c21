import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Issue 34, point 5: a store never sees two screens with one id, however the state was built.
// Each case builds its stacks before the store exists (outside any store's id sequence), and
// runs under a real `Store` and under a `TestStore`.

/// One tab: a stack of tickers of its own.
private struct BuiltTab: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Ticker.State>()
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Ticker>)
    case replaceStack
    case popTop
    case popToRoot
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .replaceStack:
        state.path = StackState([Ticker.State(id: 99)])
      case .popTop:
        state.path.removeLast()
      case .popToRoot:
        state.path.removeAll()
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Ticker() }
  }
}

/// Two tabs built from one feature, in one store.
private struct BuiltTabs: Reducer {
  struct State: Equatable, Sendable {
    var left = BuiltTab.State()
    var right = BuiltTab.State()
  }
  enum Action: Equatable, Sendable {
    case left(BuiltTab.Action)
    case right(BuiltTab.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: Action.left) { BuiltTab() }
    Scope(state: \.right, action: Action.right) { BuiltTab() }
  }
}

@MainActor
@Suite(.hangGuard)
struct StackIdentityTests {
  let clock = TestClock()

  /// Two tabs, each with one screen, numbered by their own stacks: both are #0.
  private func twoBuiltTabs() -> BuiltTabs.State {
    let state = BuiltTabs.State(
      left: BuiltTab.State(path: StackState([Ticker.State(id: 1)])),
      right: BuiltTab.State(path: StackState([Ticker.State(id: 2)])))
    #expect(state.left.path.ids == [0] && state.right.path.ids == [0])
    return state
  }

  @Test func poppingOneBuiltTabsScreenKeepsTheOtherTabsEffectInAStore() async {
    let state = twoBuiltTabs()
    let store = Store(initialState: state) {
      BuiltTabs()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.left(.path(.element(id: 0, action: .start))))
    let right = store.send(.right(.path(.element(id: 0, action: .start))))
    store.send(.left(.popTop))
    await clock.advance(by: .seconds(1))
    await right.finish()
    #expect(store.state.right.path[id: 0]?.ticks == 1)
    #expect(store.state.left.path.isEmpty)
  }

  @Test func poppingOneBuiltTabsScreenKeepsTheOtherTabsEffectInATestStore() async {
    let state = twoBuiltTabs()
    let store = TestStore(initialState: state) {
      BuiltTabs()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.left(.path(.element(id: 0, action: .start))))
    await store.send(.right(.path(.element(id: 0, action: .start))))
    await store.send(.left(.popTop)) { $0.left.path.removeAll() }
    await clock.advance(by: .seconds(1))
    await store.receive(.right(.path(.element(id: 0, action: .tick)))) {
      $0.right.path[id: 0]?.ticks = 1
    }
    await store.finish()
  }

  // Issue 50, point 1: each tab's stack is the default empty one, appended to before the store
  // exists (both screens are #0), and the left tab goes back to its root with `removeAll()`
  // (or gets a new stack): the right tab's screen keeps its running effect.

  /// Two tabs whose stacks start empty and get one screen each by `append`.
  private func twoAppendedTabs() -> BuiltTabs.State {
    var state = BuiltTabs.State()
    state.left.path.append(Ticker.State(id: 1))
    state.right.path.append(Ticker.State(id: 2))
    #expect(state.left.path.ids == [0] && state.right.path.ids == [0])
    return state
  }

  @Test(arguments: [BuiltTab.Action.popToRoot, .replaceStack])
  private func oneAppendedTabGoingBackKeepsTheOtherTabsEffectInAStore(
    _ leave: BuiltTab.Action
  ) async {
    let state = twoAppendedTabs()
    let store = Store(initialState: state) {
      BuiltTabs()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.left(.path(.element(id: 0, action: .start))))
    let right = store.send(.right(.path(.element(id: 0, action: .start))))
    store.send(.left(leave))
    await clock.advance(by: .seconds(1))
    await right.finish()
    #expect(store.state.right.path[id: 0]?.ticks == 1, "the left tab ended the right tab's effect")
  }

  @Test(arguments: [BuiltTab.Action.popToRoot, .replaceStack])
  private func oneAppendedTabGoingBackKeepsTheOtherTabsEffectInATestStore(
    _ leave: BuiltTab.Action
  ) async {
    let state = twoAppendedTabs()  // before the store: the test store would number them itself
    let store = TestStore(initialState: state) {
      BuiltTabs()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.left(.path(.element(id: 0, action: .start))))
    await store.send(.right(.path(.element(id: 0, action: .start))))
    await store.send(.left(leave)) {
      $0.left.path = leave == .popToRoot ? StackState() : StackState([Ticker.State(id: 99)])
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.right(.path(.element(id: 0, action: .tick)))) {
      $0.right.path[id: 0]?.ticks = 1
    }
    await store.finish()
  }

  @Test func aBuiltStackReplacedInTheReducerEndsTheOldScreenInAStore() async {
    let state = BuiltTab.State(path: StackState([Ticker.State(id: 1)]))
    let store = Store(initialState: state) {
      BuiltTab()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let old = store.send(.path(.element(id: 0, action: .start)))
    store.send(.replaceStack)
    #expect(store.state.path.ids != [0], "the new screen reused the old screen's id")
    await clock.advance(by: .seconds(1))
    await old.finish()
    #expect(store.state.path.map(\.ticks) == [0], "the old screen's effect reached the new one")
  }

  @Test func aBuiltStackReplacedInTheReducerEndsTheOldScreenInATestStore() async {
    let state = BuiltTab.State(path: StackState([Ticker.State(id: 1)]))
    let store = TestStore(initialState: state) {
      BuiltTab()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.replaceStack) {
      $0.path = StackState([Ticker.State(id: 99)])
    }
    #expect(store.state.path.ids != [0])
    await clock.advance(by: .seconds(1))
    await store.finish()  // the replaced screen's tick never arrives
  }

  @Test func aTestStoreExpectsTheIDsAReplacementAsItsFirstActionGets() async {
    let state = BuiltTab.State(path: StackState([Ticker.State(id: 1), Ticker.State(id: 2)]))
    let store = TestStore(initialState: state) { BuiltTab() }
    await store.send(.replaceStack) {
      $0.path = StackState([Ticker.State(id: 99)])
    }
    #expect(store.state.path.ids == [2])
  }

  @Test func aStacksIdentityDoesNotChangeItsEquality() {
    #expect(StackState([1, 2]) == StackState([1, 2]))
    var copy = StackState([1, 2])
    copy.append(3)
    copy.removeLast()
    #expect(copy == StackState([1, 2]))
  }
}
