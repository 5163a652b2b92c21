import CascadeTesting
import Testing

@testable import Cascade

/// A parent with a stack of tickers and a presented ticker, which logs every action it reduces,
/// its children's included, so two stores can be compared action by action.
private struct Screens: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var path = StackState<Ticker.State>()
    @PresentationState var child: Ticker.State?
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Ticker>)
    case child(PresentationAction<Ticker.Action>)
    case push
    case present
    case popAll
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      state.log.append("\(action)")
      switch action {
      case .push: state.path.append(Ticker.State())
      case .present: state.child = Ticker.State()
      case .popAll: state.path.removeAll()
      case .path, .child: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Ticker() }
    .ifLet(\.$child, action: Action.child) { Ticker() }
  }
}

/// The effects of stack screens and presented children behave the same in a real `Store` and in
/// the `TestStore`: each script runs in both, and after every step the `TestStore` must be in
/// exactly the state the real store was in (so both reduced the same actions, in the same
/// order), and both end with no effect running.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct NavigationEffectParityTests {
  @Test func aScreensEffectDeliversToItsScreen() async {
    await expectParity([
      .send(.push), .send(.path(.element(id: 0, action: .start))),
      .advance(.seconds(1)), .receive(.path(.element(id: 0, action: .tick))),
    ])
  }

  @Test func aPoppedScreensEffectIsCancelled() async {
    await expectParity([
      .send(.push), .send(.push), .send(.path(.element(id: 0, action: .start))),
      .send(.path(.element(id: 1, action: .start))), .send(.path(.popFrom(id: 1))),
      .advance(.seconds(1)), .receive(.path(.element(id: 0, action: .tick))),
    ])
  }

  @Test func screensRemovedByTheParentLoseTheirEffects() async {
    await expectParity([
      .send(.push), .send(.path(.element(id: 0, action: .start))), .send(.popAll),
      .advance(.seconds(1)),
    ])
  }

  @Test func aScreenDismissesItself() async {
    await expectParity([
      .send(.push), .send(.path(.element(id: 0, action: .close))),
      .receive(.path(.popFrom(id: 0))),
    ])
  }

  @Test func aPresentedChildsEffectDeliversToIt() async {
    await expectParity([
      .send(.present), .send(.child(.presented(.start))),
      .advance(.seconds(1)), .receive(.child(.presented(.tick))),
    ])
  }

  @Test func aDismissedChildsEffectIsCancelled() async {
    await expectParity([
      .send(.present), .send(.child(.presented(.start))), .send(.child(.dismiss)),
      .advance(.seconds(1)),
    ])
  }

  @Test func aPresentedChildDismissesItself() async {
    await expectParity([
      .send(.present), .send(.child(.presented(.close))), .receive(.child(.dismiss)),
    ])
  }

  @Test func aScreenAndAChildTickTogether() async {
    await expectParity([
      .send(.push), .send(.present), .send(.path(.element(id: 0, action: .start))),
      .send(.child(.presented(.start))), .advance(.seconds(1)),
      .receive(.path(.element(id: 0, action: .tick))), .receive(.child(.presented(.tick))),
    ])
  }

  /// Runs `script` in a real store, recording the state after each action it reduces, then
  /// in a `TestStore` that must reduce the same actions into the same states.
  private func expectParity(
    _ script: [ScriptStep<Screens.Action>], sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let recorder = Recorder<Screens.State, Screens.Action>(keepingStates: true)
    let storeClock = TestClock()
    let store = Store(initialState: Screens.State()) {
      Screens().record(into: recorder)
    } withDependencies: {
      $0.continuousClock = storeClock
    }
    var tasks: [StoreTask] = []
    var expected = 0
    for step in script {
      switch step {
      case let .send(action):
        tasks.append(store.send(action))
        expected += 1
      case let .advance(duration):
        await storeClock.advance(by: duration)
      case .receive:
        expected += 1
        let target = expected
        _ = await store.values(of: \.log.count).first { $0 >= target }
      }
    }
    for task in tasks { await task.finish() }
    let entries = recorder.recording.entries
    #expect(
      entries.count == expected, "the store reduced \(entries)", sourceLocation: sourceLocation)

    let testClock = TestClock()
    let testStore = TestStore(initialState: Screens.State()) {
      Screens()
    } withDependencies: {
      $0.continuousClock = testClock
    }
    var next = entries.makeIterator()
    for step in script {
      switch step {
      case let .send(action):
        let entry = next.next()
        #expect(entry?.action == action, sourceLocation: sourceLocation)
        await testStore.send(action) { $0 = entry?.state ?? $0 }
      case let .advance(duration):
        await testClock.advance(by: duration)
      case let .receive(action):
        let entry = next.next()
        #expect(entry?.action == action, sourceLocation: sourceLocation)
        await testStore.receive(action) { $0 = entry?.state ?? $0 }
      }
    }
    await testStore.finish()
  }
}
