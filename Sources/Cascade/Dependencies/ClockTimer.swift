extension Clock where Duration == Swift.Duration {
  /// A sequence that ticks every `interval`, at fixed deadlines: tick *n* comes `n * interval`
  /// after the first call to `next()`, however long the loop body took, so a slow body never
  /// makes the timer drift (and a test clock advanced by three intervals delivers three
  /// ticks). The sequence ends when the iterating task is cancelled.
  ///
  /// ```swift
  /// case .startTimer:
  ///   return .run { send in
  ///     for await _ in clock.timer(interval: .seconds(1)) {
  ///       await send(.timerTicked)
  ///     }
  ///   }
  ///   .cancellable(id: CancelID.timer)
  /// ```
  ///
  /// Works on any clock, an existential `any Clock<Duration>` (the `continuousClock`
  /// dependency) included.
  public func timer(interval: Duration, tolerance: Duration? = nil) -> ClockTimer {
    ClockTimer { [self] in
      let origin = now
      return { tick in
        try await sleep(until: origin.advanced(by: interval * tick), tolerance: tolerance)
      }
    }
  }
}

/// The ticks of a clock's `timer(interval:tolerance:)`: 1, 2, 3 and so on, each at its
/// fixed deadline.
///
/// ```swift
/// for await tick in clock.timer(interval: .seconds(1)).prefix(3) {
///   print(tick)  // 1, 2, 3
/// }
/// ```
public struct ClockTimer: AsyncSequence, Sendable {
  /// The number of the tick: 1 for the first.
  public typealias Element = Int

  let start: @Sendable () -> @Sendable (Int) async throws -> Void

  /// An iterator that fixes the timer's origin at its first `next()`.
  public func makeAsyncIterator() -> Iterator { Iterator(start: start) }

  /// Sleeps until each tick's deadline.
  public struct Iterator: AsyncIteratorProtocol {
    let start: @Sendable () -> @Sendable (Int) async throws -> Void
    var sleepUntilTick: (@Sendable (Int) async throws -> Void)?
    var tick = 0

    /// The next tick, once its deadline has come; `nil` once the task is cancelled.
    public mutating func next() async -> Int? {
      let sleep = sleepUntilTick ?? start()
      sleepUntilTick = sleep
      tick += 1
      do {
        try await sleep(tick)
      } catch {
        return nil
      }
      return tick
    }
  }
}
