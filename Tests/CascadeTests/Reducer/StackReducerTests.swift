import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's StackReducerTests: 15 behaviours ported (`stack[id:case:]` read, change,
// pop and wrong-case report are in CasePathableTests), 2 deliberately different (see
// "Navigation: differences from TCA" in the migration guide): the warnings' exact text, and a
// `.push` id above the next generated one (Cascade accepts it).

/// One tab: a stack of tickers of its own.
private struct TabFeature: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Ticker.State>()
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Ticker>)
    case pushTapped
    case reset
    case removeScreen(StackElementID)
    case popTop
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .pushTapped:
        state.path.append(Ticker.State())
      case .reset:
        state.path = StackState([Ticker.State()])
      case let .removeScreen(id):
        state.path[id: id] = nil
      case .popTop:
        state.path.removeLast()
      case let .path(.popFrom(id)):
        // A parent that pops by itself when asked to.
        state.path.pop(from: id)
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Ticker() }
  }
}

/// Two tabs built from one feature, in one store.
private struct TwoTabs: Reducer {
  struct State: Equatable, Sendable {
    var left = TabFeature.State()
    var right = TabFeature.State()
  }
  enum Action: Equatable, Sendable {
    case left(TabFeature.Action)
    case right(TabFeature.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: Action.left) { TabFeature() }
    Scope(state: \.right, action: Action.right) { TabFeature() }
  }
}

@MainActor
@Suite(.hangGuard)
struct StackReducerTests {
  let clock = TestClock()

  private func tabs() -> TestStore<TwoTabs.State, TwoTabs.Action> {
    TestStore(initialState: TwoTabs.State()) {
      TwoTabs()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  private func tab(_ state: TabFeature.State = TabFeature.State()) -> TestStore<
    TabFeature.State, TabFeature.Action
  > {
    TestStore(initialState: state) {
      TabFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  // MARK: Issue 20, point 1: ids are unique per store

  @Test func twoStacksInOneStoreNumberTheirScreensFromOneSequence() async {
    let store = tabs()
    await store.send(.left(.pushTapped)) { $0.left.path.append(Ticker.State()) }
    await store.send(.right(.pushTapped)) { $0.right.path.append(Ticker.State()) }
    #expect(store.state.left.path.ids == [0])
    #expect(store.state.right.path.ids == [1])
  }

  @Test func poppingOneTabsScreenKeepsTheOtherTabsEffects() async {
    let store = tabs()
    await store.send(.left(.pushTapped)) { $0.left.path.append(Ticker.State()) }
    await store.send(.right(.pushTapped)) { $0.right.path.append(Ticker.State()) }
    await store.send(.left(.path(.element(id: 0, action: .start))))
    await store.send(.right(.path(.element(id: 1, action: .start))))
    await store.send(.left(.popTop)) { $0.left.path.removeAll() }
    await clock.advance(by: .seconds(1))
    await store.receive(.right(.path(.element(id: 1, action: .tick)))) {
      $0.right.path[id: 1]?.ticks = 1
    }
    await store.finish()
  }

  @Test func reassigningTheStackCancelsTheReplacedScreensEffects() async {
    let store = tab()
    await store.send(.pushTapped) { $0.path.append(Ticker.State()) }
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.reset) { $0.path = StackState([Ticker.State()]) }
    #expect(store.state.path.ids == [1])  // never #0 again in this store
    await clock.advance(by: .seconds(1))
    await store.finish()  // the replaced screen's tick never arrives
  }

  @Test func idsInATestAreTheSameEveryRunAndStartFromZeroPerStore() async {
    for _ in 0..<2 {
      let store = tab()
      await store.send(.pushTapped) { $0.path[id: 0] = Ticker.State() }
      await store.send(.pushTapped) { $0.path[id: 1] = Ticker.State() }
    }
  }

  @Test func theInitialStateOfATestStoreDrawsFromTheStoresSequence() async {
    let store = tab(TabFeature.State(path: StackState([Ticker.State()])))
    #expect(store.state.path.ids == [0])
    await store.send(.pushTapped) { $0.path.append(Ticker.State()) }
    #expect(store.state.path.ids == [0, 1])
  }

  // MARK: Issue 20, point 5: popping in response to popFrom

  @Test func aParentThatPopsOnPopFromGetsNoWarning() async {
    let store = tab()
    await store.send(.pushTapped) { $0.path.append(Ticker.State()) }
    await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  }

  @Test func popFromForAnIDThatWasNeverThereWarns() async {
    let store = tab()
    await withKnownIssue {
      await store.send(.path(.popFrom(id: 7)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'popFrom' for a screen that is not") }
    }
  }

  // MARK: Issue 20, point 6: the id subscript

  @Test func removingOneScreenByIDKeepsTheScreensAboveIt() async {
    let store = tab()
    for _ in 0..<3 { await store.send(.pushTapped) { $0.path.append(Ticker.State()) } }
    await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.path(.element(id: 2, action: .start)))
    await store.send(.removeScreen(1)) { $0.path[id: 1] = nil }
    #expect(store.state.path.ids == [0, 2])
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 2, action: .tick))) { $0.path[id: 2]?.ticks = 1 }
    await store.finish()  // #1's tick was cancelled with it
  }

  @Test func assigningANewIDAppendsTheScreen() {
    var stack = StackState<String>()
    stack[id: 0] = "a"
    stack[id: 3] = "b"
    #expect(stack.ids == [0, 3])
    #expect(Array(stack) == ["a", "b"])
    stack.append("c")
    #expect(stack.ids == [0, 3, 4])
  }

  @Test func idsAreFoundBySetsDictionariesAndAnyHashableAndSpreadOverBuckets() {
    let ids =
      (0..<5_000).map(StackElementID.init(rawValue:))
      + [-1, .max, .min].map(StackElementID.init(rawValue:))
    let set = Set(ids)
    #expect(set.count == ids.count)
    #expect(ids.allSatisfy(set.contains))
    #expect(!set.contains(5_000))
    var positions: [StackElementID: Int] = [:]
    for (position, id) in ids.enumerated() { positions[id] = position }
    #expect(ids.enumerated().allSatisfy { positions[$0.element] == $0.offset })
    let erased = Set(ids.map(AnyHashable.init))
    #expect(erased.contains(AnyHashable(StackElementID(rawValue: 42))))
    #expect(!erased.contains(AnyHashable(42)))  // a number is not an id
    // Consecutive ids (what a stack draws) land in as many buckets as random keys would:
    // about 1 - 1/e of 1,024.
    let buckets = Set(
      (0..<1_024).map { StackElementID(rawValue: $0)._rawHashValue(seed: 0) & 1_023 })
    #expect(buckets.count > 560)
  }

  // MARK: Ported from TCA

  @Test func pushingWithAnIDAndAppendingShareOneSequence() async {
    let store = tab()
    await store.send(.path(.push(id: 0, state: Ticker.State()))) {
      $0.path[id: 0] = Ticker.State()
    }
    await store.send(.pushTapped) { $0.path[id: 1] = Ticker.State() }
    await store.send(.path(.push(id: 2, state: Ticker.State()))) {
      $0.path[id: 2] = Ticker.State()
    }
    await store.send(.pushTapped) { $0.path[id: 3] = Ticker.State() }
  }

  @Test func pushingAnIDAlreadyOnTheStackWarns() async {
    let store = tab()
    await store.send(.path(.push(id: 0, state: Ticker.State()))) {
      $0.path[id: 0] = Ticker.State()
    }
    await withKnownIssue {
      await store.send(.path(.push(id: 0, state: Ticker.State())))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'push' with an id already on the stack") }
    }
  }

  @Test func anActionForAMissingScreenWarns() async {
    let store = tab(TabFeature.State(path: StackState([Ticker.State()])))
    await withKnownIssue {
      await store.send(.path(.element(id: 999, action: .tick)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("not on the stack (id #999)") }
    }
  }

  @Test func aScreenDismissesItselfWithPopFrom() async {
    let store = tab()
    await store.send(.pushTapped) { $0.path.append(Ticker.State()) }
    await store.send(.path(.element(id: 0, action: .close)))
    await store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
    await store.finish()
  }

  @Test func poppingFromTheParentCancelsTheScreensEffects() async {
    let store = tab()
    await store.send(.pushTapped) { $0.path.append(Ticker.State()) }
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.popTop) { $0.path.removeAll() }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func aScreenCannotCancelItsSiblingsEffect() async {
    let store = tab(TabFeature.State(path: StackState([Ticker.State(), Ticker.State()])))
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.path(.element(id: 0, action: .cancel)))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .tick))) { $0.path[id: 1]?.ticks = 1 }
    await store.finish()
  }

  @Test func aRemovedFirstScreenLeavesTheOthersEffectsDeliveredToTheRightID() async {
    let store = tab(TabFeature.State(path: StackState([Ticker.State(), Ticker.State()])))
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.removeScreen(0)) { $0.path[id: 0] = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .tick))) { $0.path[id: 1]?.ticks = 1 }
    await store.finish()
  }

  @Test func screensRemovedOutsideTheForEachLoseTheirEffectsAtItsNextAction() async {
    struct Outer: Reducer {
      struct State: Equatable, Sendable { var tab = TabFeature.State() }
      enum Action: Equatable, Sendable {
        case tab(TabFeature.Action)
        case clear
      }
      var body: some Reducer<State, Action> {
        Scope(state: \.tab, action: Action.tab) { TabFeature() }
        Reduce { state, action in
          if case .clear = action { state.tab.path.removeAll() }
          return .none
        }
      }
    }
    let store = TestStore(initialState: Outer.State()) {
      Outer()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.tab(.pushTapped)) { $0.tab.path.append(Ticker.State()) }
    await store.send(.tab(.path(.element(id: 0, action: .start))))
    await store.send(.clear) { $0.tab.path.removeAll() }
    await store.send(.tab(.pushTapped)) { $0.tab.path.append(Ticker.State()) }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func idsDrawnInOneBatchAreReplayedByTheExpectation() async {
    struct Feature: Reducer {
      struct State: Equatable, Sendable { var path = StackState<Int>() }
      enum Action: Equatable, Sendable {
        case buttonTapped, response
        case path(StackAction<Int, Never>)
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .buttonTapped:
            state.path.append(1)
            return .send(.response)
          case .response:
            state.path.append(2)
            return .none
          case .path:
            return .none
          }
        }
        .forEach(\.path, action: Action.path) { EmptyReducer() }
      }
    }
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.buttonTapped) { $0.path[id: 0] = 1 }
    await store.receive(.response) { $0.path[id: 1] = 2 }
    await store.send(.buttonTapped) { $0.path.append(1) }
    await store.receive(.response) { $0.path[id: 3] = 2 }
  }
}
