import Cascade
import CascadeTestSupport
import CascadeTesting
import Testing

/// A test store and a test clock driving effects that wait the way apps' do (the shared
/// `Ticker`'s): a sleep after real work, a sleep loop, and a timer.
@MainActor
@Suite(.hangGuard)
struct TestStoreClockTests {
  private func makeStore(_ clock: TestClock) -> TestStore<Ticker.State, Ticker.Action> {
    TestStore(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func anEffectThatWorksBeforeItsFirstSleepIsWokenByTheNextAdvance() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.busyThenSleep)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.finish()
  }

  @Test func oneAdvanceOverASleepLoopDeliversATickPerInterval() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.startLoop)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.receive(.tick) { $0.ticks = 3 }
    await store.send(.cancel)
    await store.finish()
  }

  /// A test may end with the send that cancels its effect (a stop button), with no `finish()`:
  /// the cancelled effect is over as far as the test is concerned, as in TCA. (The test store
  /// used to end before the cancelled task had wound down and report it as still running.)
  @Test(arguments: [false, true])
  func aTestThatEndsByCancellingItsEffectPasses(timer: Bool) async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(timer ? .startTimer : .startLoop)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.cancel)
  }

  @Test func oneAdvanceOverATimerDeliversATickPerInterval() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.startTimer)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.receive(.tick) { $0.ticks = 3 }
    await clock.advance(by: .milliseconds(999))
    await store.send(.cancel)
    await store.finish()
  }

  @Test func runAfterAPlainStoreSendWaitsForTheEffectToStart() async {
    let clock = TestClock()
    let store = Store(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.busyThenSleep)
    await clock.run()
    #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
    #expect(store.state.ticks == 1)
  }
}
