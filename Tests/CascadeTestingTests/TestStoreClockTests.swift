import Cascade
import CascadeTesting
import Testing

/// A feature whose effects wait on the clock the way apps' do.
private struct Ticker: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
  }
  enum Action: Equatable, Sendable {
    case busyThenSleep
    case startLoop
    case startTimer
    case stop
    case tick
  }
  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .busyThenSleep:
      return .run { send in
        // Real work before the first sleep (about 100 ms on this machine, more under load).
        _ = busyWork()
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
    case .startLoop:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .startTimer:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
      .cancellable(id: CancelID.timer)
    case .stop:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// A deterministic computation that takes a while.
private func busyWork() -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for value in 0..<UInt64(2_000_000) {
    hash = (hash ^ value) &* 0x100_0000_01b3
  }
  return hash
}

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
    await store.send(.stop)
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
    await store.send(.stop)
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
    await store.send(.stop)
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
