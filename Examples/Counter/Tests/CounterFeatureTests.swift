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
      CounterFeature(tickInterval: .seconds(1))
    } withDependencies: {
      $0.continuousClock = clock
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
      CounterFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let timer = store.send(.toggleTimerButtonTapped)
    store.send(.resetButtonTapped)
    await timer.finish()
    #expect(store.state == CounterFeature.State(count: 0))
    #expect(store.activeEffectCount == 0)
  }

  @Test func theTimerWithoutAClockOverrideIsReported() async {
    let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
    let (_, warnings) = await RuntimeWarnings.capturing {
      let timer = store.send(.toggleTimerButtonTapped)
      // The unimplemented test clock reports and does not wait: the timer ticks at once.
      _ = await store.values(of: \.count).first { $0 >= 1 }
      timer.cancel()
      await timer.finish()
    }
    #expect(!warnings.isEmpty)
    #expect(warnings.allSatisfy { $0.message.contains("'continuousClock'") })
  }

  @Test func theScriptedScenarioPasses() async {
    let failures = await CounterScenario(print: { _ in }).run()
    #expect(failures.isEmpty)
  }
}
