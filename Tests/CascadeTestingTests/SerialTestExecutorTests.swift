import Cascade
import CascadeTesting
import Foundation
import Testing

/// A feature whose effect records whether its operation ran on the test's executor.
private struct Probe: Reducer {
  struct State: Equatable {}
  enum Action { case start }

  let ranOnExecutor: Guarded<Bool?>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { [ranOnExecutor] _ in
      let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
      let expected = UnownedTaskExecutor(ordinary: SerialTestExecutor.current)
      ranOnExecutor.withLock { $0 = preferred == expected }
    }
  }
}

/// The serial executor is scoped to the test's effects: a test store's and a store's effects run
/// on it, and every other task of the process stays on the global pool.
@MainActor
@Suite(.hangGuard)
struct SerialTestExecutorTests {
  @Test func aTestStoresEffectsRunOnTheTestsExecutor() async {
    let ran = Guarded<Bool?>(nil)
    let store = TestStore(initialState: Probe.State()) { Probe(ranOnExecutor: ran) }
    await store.send(.start)
    await store.finish()
    #expect(ran.withLock { $0 } == true)
  }

  @Test func aStoresEffectsRunOnTheTestsExecutor() async {
    let ran = Guarded<Bool?>(nil)
    let store = Store(initialState: Probe.State()) { Probe(ranOnExecutor: ran) }
    await store.send(.start).finish()
    #expect(ran.withLock { $0 } == true)
  }

  /// In a process where nothing of CascadeTesting has run yet, the first store still finds the
  /// test's executor (it is looked up by type, not registered by a test store or clock).
  @Test func theProcesssFirstStoreRunsItsEffectsOnTheExecutor() async {
    await #expect(processExitsWith: .success) {
      let ran = Guarded<Bool?>(nil)
      await Task { @MainActor in
        let store = Store(initialState: Probe.State()) { Probe(ranOnExecutor: ran) }
        await store.send(.start).finish()
      }.value
      exit(ran.withLock { $0 } == true ? EXIT_SUCCESS : EXIT_FAILURE)
    }
  }

  /// The executor that ran every task of the process on the main thread while a test store
  /// lived would never run this detached task while the main thread is held: it would fail
  /// after the deadline (which only a failing run reaches).
  @Test func otherTasksStayOnTheGlobalPoolWhileATestStoreLives() async {
    let store = TestStore(initialState: Probe.State()) { Probe(ranOnExecutor: Guarded(nil)) }
    let ran = Guarded(false)
    Task.detached { ran.withLock { $0 = true } }
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !ran.withLock({ $0 }), ContinuousClock.now < deadline {
      usleep(100)  // holds the main thread on purpose
    }
    #expect(ran.withLock { $0 })
    _ = store
  }

  @Test func oneTestHasOneExecutorAndWorkOutsideTestsAnother() async {
    let executor = SerialTestExecutor.current
    #expect(SerialTestExecutor.current === executor)
    let outside = await Task.detached { SerialTestExecutor.current }.value
    #expect(outside !== executor)
  }
}
