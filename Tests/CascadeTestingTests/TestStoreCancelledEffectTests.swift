import Cascade
import CascadeTesting
import Testing

/// A screen whose effect sends ticks as fast as it can (as a timer on an immediate clock does)
/// and which closes itself on its third tick, on a stack.
private struct Runner: Reducer {
  struct State: Equatable, Sendable { var ticks = 0 }
  enum Action: Equatable, Sendable { case start, tick }
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        while !Task.isCancelled {
          await send(.tick)
          await Task.yield()
        }
      }
    case .tick:
      state.ticks += 1
      return state.ticks == 3 ? .run { _ in await dismiss() } : .none
    }
  }
}

private struct Screens: Reducer {
  struct State: Equatable, Sendable { var path = StackState<Runner.State>() }
  enum Action: Equatable, Sendable { case path(StackActionOf<Runner>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.path, action: Action.path) { Runner() }
  }
}

@MainActor
@Suite(.hangGuard)
struct TestStoreCancelledEffectTests {
  /// TCA reduces each action as it comes, so the screen closes on its third tick and its
  /// effect is cancelled before it sends more; Cascade's test store delivers actions when the
  /// test receives them, so the effect runs ahead. What it sent after the dismissal that ended
  /// it is discarded, and the test ends cleanly, as in TCA.
  @Test func actionsOfAnEffectCancelledWhileTheyWaitAreDiscarded() async {
    for _ in 0..<20 {
      let store = TestStore(initialState: Screens.State(path: StackState([Runner.State()]))) {
        Screens()
      }
      await store.withExhaustivity(.off) {
        await store.send(.path(.element(id: 0, action: .start)))
        await store.receive(\.path.popFrom) {
          #expect($0.path.isEmpty)
        }
      }
      await store.finish()
    }
  }

  @Test func theSameScreenInARealStoreClosesOnItsThirdTick() async {
    let store = Store(initialState: Screens.State(path: StackState([Runner.State()]))) {
      Screens()
    }
    await store.send(.path(.element(id: 0, action: .start))).finish()
    #expect(store.state.path.isEmpty)
  }
}
