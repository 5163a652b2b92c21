import Cascade
import CascadeTesting
import Counter
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct CounterFeatureTests {
  @Test func incrementDecrementReset() {
    let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    store.send(.decrementButtonTapped)
    #expect(store.count == 1)
    store.send(.resetButtonTapped)
    #expect(store.state == CounterFeature.State())
  }

  @Test func timerTicksOnTheClockAndStopsWhenToggled() async {
    let clock = TestClock()
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature(tickInterval: .seconds(1), clock: clock)
    }
    let timer = store.send(.toggleTimerButtonTapped)
    #expect(store.isTimerRunning)
    while clock.sleeperCount == 0 { await Task.yield() }
    await clock.advance(by: .seconds(1))
    _ = await store.values(of: \.count).first { $0 == 1 }
    while clock.sleeperCount == 0 { await Task.yield() }
    await clock.advance(by: .seconds(1))
    _ = await store.values(of: \.count).first { $0 == 2 }

    store.send(.toggleTimerButtonTapped)
    await timer.finish()  // the timer's task has ended
    #expect(!store.isTimerRunning)
    await clock.advance(by: .seconds(10))
    #expect(store.count == 2)
  }

  @Test func resetCancelsARunningTimer() async {
    let clock = TestClock()
    let store = Store(initialState: CounterFeature.State(count: 5)) {
      CounterFeature(clock: clock)
    }
    let timer = store.send(.toggleTimerButtonTapped)
    store.send(.resetButtonTapped)
    await timer.finish()
    #expect(store.state == CounterFeature.State(count: 0))
    #expect(store.activeEffectCount == 0)
  }

  @Test func theScriptedScenarioPasses() async {
    let failures = await CounterScenario(print: { _ in }).run()
    #expect(failures.isEmpty)
  }
}
