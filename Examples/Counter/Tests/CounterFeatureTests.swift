import Cascade
import CascadeExampleCounter
import CascadeTesting
import Testing

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct CounterFeatureTests {
  @Test func incrementDecrementReset() async {
    let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.incrementButtonTapped) { $0.count = 2 }
    await store.send(.decrementButtonTapped) { $0.count = 1 }
    await store.send(.resetButtonTapped) { $0.count = 0 }
  }

  @Test func timerTicksOnTheClockAndStopsWhenToggled() async {
    let clock = TestClock()
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature(tickInterval: .seconds(1))
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.count = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.count = 2 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
    await clock.advance(by: .seconds(10))  // nothing more arrives: the timer was cancelled
    await store.finish()
  }

  @Test func resetCancelsARunningTimer() async {
    let clock = TestClock()
    let store = TestStore(initialState: CounterFeature.State(count: 5)) {
      CounterFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await store.send(.resetButtonTapped) {
      $0.count = 0
      $0.isTimerRunning = false
    }
    await clock.run()
    await store.finish()
  }

  @Test func theTimerWithoutAClockOverrideFailsTheTestOnce() async {
    let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() }
    // Exactly one failure, however many times the timer loops on the clock that does not wait.
    let failures = LockIsolated(0)
    await withKnownIssue {
      await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
      // The clock reports before the timer can tick, so receiving a tick waits for the report.
      await store.receive(.timerTicked) { $0.count = 1 }
      store.exhaustivity = .off
      await store.skipInFlightEffects()
    } matching: { issue in
      failures.withValue { $0 += 1 }
      return issue.comments.contains { $0.rawValue.contains("'continuousClock'") }
    }
    #expect(failures.value == 1)
  }

  @Test func theScriptedScenarioPasses() async {
    let failures = await CounterScenario(clock: ImmediateClock(), print: { _ in }).run()
    #expect(failures.isEmpty)
  }
}
