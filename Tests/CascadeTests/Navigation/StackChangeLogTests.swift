import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// A stack whose parent changes it in every way the stack's change log has to get right: a copy
/// from before the last push put back, more changes in one action than the log keeps, and a
/// screen taken out and put back under its own id.
private struct Churning: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Ticker.State>()
    var saved: StackState<Ticker.State>?
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Ticker>)
    case push
    case save
    /// Puts the saved copy back with one more screen: a stack the log never saw.
    case restoreAndPush
    /// Pushes and pops 40 screens, then removes the screen with this id.
    case churnThenRemove(StackElementID)
    /// Takes the screen out and puts it back under the same id.
    case removeAndPutBack(StackElementID)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push:
        state.path.append(Ticker.State())
      case .save:
        state.saved = state.path
      case .restoreAndPush:
        var restored = state.saved ?? StackState()
        restored.append(Ticker.State())
        state.path = restored
        state.saved = nil
      case let .churnThenRemove(id):
        for _ in 0..<40 { state.path.append(Ticker.State()) }
        state.path.removeLast(40)
        state.path[id: id] = nil
      case let .removeAndPutBack(id):
        let screen = state.path[id: id]
        state.path[id: id] = nil
        state.path[id: id] = screen
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Ticker() }
  }
}

/// The stack operator learns which screens went from the stack's change log, and falls back to
/// comparing ids when the log cannot tell: each way must end exactly the screens that went.
@MainActor
@Suite(.hangGuard)
struct StackChangeLogTests {
  let clock = TestClock()

  private func store() -> TestStore<Churning.State, Churning.Action> {
    TestStore(initialState: Churning.State()) {
      Churning()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func puttingBackACopyFromBeforeAPushEndsThePushedScreenOnly() async {
    let store = store()
    await store.send(.push) { $0.path[id: 0] = Ticker.State() }
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.save) { $0.saved = $0.path }
    await store.send(.push) { $0.path[id: 1] = Ticker.State() }
    await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.restoreAndPush) {
      $0.path[id: 1] = nil
      $0.path[id: 2] = Ticker.State()
      $0.saved = nil
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 1 }
    await store.finish()  // screen 1's tick never arrives
  }

  @Test func moreChangesThanTheLogKeepsStillEndExactlyTheRemovedScreen() async {
    let store = store()
    await store.send(.push) { $0.path[id: 0] = Ticker.State() }
    await store.send(.push) { $0.path[id: 1] = Ticker.State() }
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.churnThenRemove(0)) {
      for _ in 0..<40 { $0.path.append(Ticker.State()) }
      $0.path.removeLast(40)
      $0.path[id: 0] = nil
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .tick))) { $0.path[id: 1]?.ticks = 1 }
    await store.finish()
  }

  @Test func aScreenTakenOutAndPutBackUnderItsIDKeepsItsEffects() async {
    let store = store()
    await store.send(.push) { $0.path[id: 0] = Ticker.State() }
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.removeAndPutBack(0))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 1 }
    await store.finish()
  }

  @Test func aRealStoreEndsTheSameScreens() async {
    let store = Store(initialState: Churning.State()) {
      Churning()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.push)
    store.send(.push)
    let zero = store.send(.path(.element(id: 0, action: .start)))
    let one = store.send(.path(.element(id: 1, action: .start)))
    store.send(.save)
    store.send(.churnThenRemove(0))
    store.send(.push)
    let fortyTwo = store.send(.path(.element(id: 42, action: .start)))
    store.send(.restoreAndPush)  // back to the saved [0, 1], plus 43: screen 42 goes
    #expect(store.state.path.ids == [0, 1, 43])
    await clock.advance(by: .seconds(1))
    for task in [zero, one, fortyTwo] { await task.finish() }
    // Screen 0 is back with the restored copy, but its effect ended when it was removed.
    #expect(store.state.path.map(\.ticks) == [0, 1, 0])
  }

  // One change since the operator last looked (a push, a pop) is read from the log's newest
  // entry; a pop of several screens is several entries, read from the log; the ids that went
  // are kept as one id, then a set.

  @Test func poppingThreeScreensInOneActionEndsEachOfTheirEffects() async {
    let store = store()
    for id in 0..<4 {
      await store.send(.push) { $0.path[id: StackElementID(rawValue: id)] = Ticker.State() }
    }
    for id in 0..<4 {
      await store.send(.path(.element(id: StackElementID(rawValue: id), action: .start)))
    }
    await store.send(.path(.popFrom(id: 1))) { $0.path.removeLast(3) }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 1 }
    await store.finish()  // screens 1, 2 and 3 never tick
  }

  @Test func aRealStorePoppingThreeScreensEndsEachOfTheirEffects() async {
    let store = Store(initialState: Churning.State()) {
      Churning()
    } withDependencies: {
      $0.continuousClock = clock
    }
    for _ in 0..<4 { store.send(.push) }
    let tasks = (0..<4).map {
      store.send(.path(.element(id: StackElementID(rawValue: $0), action: .start)))
    }
    store.send(.path(.popFrom(id: 1)))
    #expect(store.state.path.ids == [0])
    await clock.advance(by: .seconds(1))
    for task in tasks { await task.finish() }
    #expect(store.state.path.map(\.ticks) == [1])
  }

  @Test func aPushThenAPopOfTheSameScreenInOneActionEndsNothingElse() async {
    let store = store()
    await store.send(.push) { $0.path[id: 0] = Ticker.State() }
    await store.send(.path(.element(id: 0, action: .start)))
    // 40 pushes and pops, then screen 0 removed: the pushed screens come and go unseen.
    await store.send(.push) { $0.path[id: 1] = Ticker.State() }
    await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.churnThenRemove(1)) {
      for _ in 0..<40 { $0.path.append(Ticker.State()) }
      $0.path.removeLast(40)
      $0.path[id: 1] = nil
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 1 }
    await store.finish()
  }
}
