import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's PresentationReducerTests, the cancellation-id behaviours between levels:
// a parent cancelling an id reaches the effects its children started with that id
// (testNavigation_cancelID_parentCancelTwoChildren), and a child cannot cancel its parent's
// effect (testNavigation_cancelID_childCannotCancelParent). Checked for presented children and
// stack screens, in a TestStore and a real Store.

/// Two presented tickers and a stack of tickers under one parent, which can cancel the tickers'
/// id itself and start an effect of its own under that same id.
private struct Levels: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var first: Ticker.State?
    @PresentationState var second: Ticker.State?
    var path = StackState<Ticker.State>()
    var parentTicks = 0
  }
  enum Action: Equatable, Sendable {
    case first(PresentationAction<Ticker.Action>)
    case second(PresentationAction<Ticker.Action>)
    case path(StackActionOf<Ticker>)
    case presentBoth
    case push
    case stopTickers
    case startOwnTick
    case ownTick
  }
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .presentBoth:
        state.first = Ticker.State()
        state.second = Ticker.State()
      case .push:
        state.path.append(Ticker.State())
      case .stopTickers:
        return .cancel(id: Ticker.CancelID.tick)
      case .startOwnTick:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.ownTick)
        }
        .cancellable(id: Ticker.CancelID.tick)
      case .ownTick:
        state.parentTicks += 1
      case .first, .second, .path:
        break
      }
      return .none
    }
    .ifLet(\.$first, action: Action.first) { Ticker() }
    .ifLet(\.$second, action: Action.second) { Ticker() }
    .forEach(\.path, action: Action.path) { Ticker() }
  }
}

@MainActor
@Suite(.hangGuard)
struct CancellationAcrossLevelsTests {
  let clock = TestClock()

  private func testStore() -> TestStore<Levels.State, Levels.Action> {
    TestStore(initialState: Levels.State()) {
      Levels()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aParentCancellingAnIDEndsThatIDInEveryChildBelowIt() async {
    let store = testStore()
    await store.send(.presentBoth) {
      $0.first = Ticker.State()
      $0.second = Ticker.State()
    }
    await store.send(.push) { $0.path[id: 0] = Ticker.State() }
    await store.send(.first(.presented(.start)))
    await store.send(.second(.presented(.start)))
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.stopTickers)
    await clock.advance(by: .seconds(1))
    await store.finish()  // no tick arrives from any child
  }

  @Test func aChildCannotCancelItsParentsEffectWithTheSameID() async {
    let store = testStore()
    await store.send(.presentBoth) {
      $0.first = Ticker.State()
      $0.second = Ticker.State()
    }
    await store.send(.startOwnTick)
    await store.send(.first(.presented(.cancel)))
    await clock.advance(by: .seconds(1))
    await store.receive(.ownTick) { $0.parentTicks = 1 }
    await store.finish()
  }

  @Test func aRealStoreAgrees() async {
    let store = Store(initialState: Levels.State()) {
      Levels()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.presentBoth)
    store.send(.push)
    var tasks = [
      store.send(.first(.presented(.start))), store.send(.second(.presented(.start))),
      store.send(.path(.element(id: 0, action: .start))),
    ]
    store.send(.stopTickers)
    tasks.append(store.send(.startOwnTick))
    store.send(.second(.presented(.cancel)))  // cannot reach the parent's own tick
    await clock.advance(by: .seconds(1))
    for task in tasks { await task.finish() }
    #expect(store.state.first?.ticks == 0)
    #expect(store.state.second?.ticks == 0)
    #expect(store.state.path[id: 0]?.ticks == 0)
    #expect(store.state.parentTicks == 1)
  }
}
