import Cascade

/// The counter's scripted scenario: what `counter` runs by default and `cascade-examples` runs
/// among the apps. It prints a transcript and checks its own expectations.
@MainActor
public final class CounterScenario {
  public typealias Printer = @MainActor @Sendable (String) -> Void

  let print: Printer
  private let clock: any Clock<Duration>
  private var failures: [String] = []
  private let recorder: Recorder<CounterFeature.State, CounterFeature.Action>?

  /// - Parameter clock: The clock the timer ticks on (real time for the executable).
  /// - Parameter recorder: Records the session (`--record`).
  public init(
    clock: any Clock<Duration> = ContinuousClock(),
    recorder: Recorder<CounterFeature.State, CounterFeature.Action>? = nil,
    print: @escaping Printer
  ) {
    self.recorder = recorder
    self.clock = clock
    self.print = print
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
    expect(store.count == 2, "count is 2 after three increments and a decrement")

    let timer = store.send(.toggleTimerButtonTapped)
    var ticks = 0
    for await count in store.values(of: \.count) where count > 2 {
      ticks += 1
      if count == 5 { break }
    }
    expect(ticks == 3, "three timer ticks arrive")
    send(.toggleTimerButtonTapped, to: store)
    expect(!store.isTimerRunning, "the timer stops")

    send(.resetButtonTapped, to: store)
    expect(store.count == 0, "reset brings the count back to 0")
    await timer.finish()  // the timer's task has wound down: cancellation is cooperative
    expect(store.activeEffectCount == 0, "no effect left running")
    return failures
  }

  private func send(_ action: CounterFeature.Action, to store: StoreOf<CounterFeature>) {
    store.send(action)
  }

  private func expect(_ condition: Bool, _ description: String) {
    print(condition ? "  ✓ \(description)" : "  ✗ \(description)")
    if !condition { failures.append(description) }
  }
}
