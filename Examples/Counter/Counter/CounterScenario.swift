import Cascade
import CascadeExampleSupport

/// The counter's scripted scenario: what `counter` runs by default and `cascade-examples` runs
/// among the apps. It prints a transcript and checks its own expectations.
@MainActor
public final class CounterScenario {
  let print: ScenarioPrinter
  private let clock: any Clock<Duration>
  private let checks: ScenarioChecks
  private let recorder: Recorder<CounterFeature.State, CounterFeature.Action>?

  /// - Parameter clock: The clock the timer ticks on (real time for the executable).
  /// - Parameter recorder: Records the session (`--record`).
  public init(
    clock: any Clock<Duration> = ContinuousClock(),
    recorder: Recorder<CounterFeature.State, CounterFeature.Action>? = nil,
    print: @escaping ScenarioPrinter
  ) {
    self.recorder = recorder
    self.clock = clock
    self.print = print
    self.checks = ScenarioChecks(print: print)
  }

  /// Runs the scenario; returns the expectations that failed (none when it passed).
  public func run() async -> [String] {
    let (print, clock, recorder) = (self.print, self.clock, self.recorder)
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature(tickInterval: .milliseconds(20))
        .printChanges(to: .closure { entry in MainActor.assumeIsolated { print(entry) } })
        .record(into: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    send(.incrementButtonTapped, to: store)
    send(.incrementButtonTapped, to: store)
    send(.incrementButtonTapped, to: store)
    send(.decrementButtonTapped, to: store)
    checks.expect(store.count == 2, "count is 2 after three increments and a decrement")

    let timer = store.send(.toggleTimerButtonTapped)
    var ticks = 0
    for await count in store.values(of: \.count) where count > 2 {
      ticks += 1
      if count == 5 { break }
    }
    checks.expect(ticks == 3, "three timer ticks arrive")
    send(.toggleTimerButtonTapped, to: store)
    checks.expect(!store.isTimerRunning, "the timer stops")

    send(.resetButtonTapped, to: store)
    checks.expect(store.count == 0, "reset brings the count back to 0")
    await timer.finish()  // the timer's task has wound down: cancellation is cooperative
    checks.expect(store.activeEffectCount == 0, "no effect left running")
    return checks.failures
  }

  private func send(_ action: CounterFeature.Action, to store: StoreOf<CounterFeature>) {
    store.send(action)
  }
}
