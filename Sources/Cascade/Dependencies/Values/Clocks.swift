import Synchronization

extension DependencyValues {
  /// The clock for waiting: timers, debounces, splash screens. Live: `ContinuousClock()`.
  /// Tests must set one (usually `TestClock()`); the default fails the test when used.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// // ...
  /// try await clock.sleep(for: .seconds(1))
  /// ```
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// A clock that does not advance while the system sleeps. Live: `SuspendingClock()`; tests
  /// must set one.
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static var testValue: any Clock<Duration> { UnimplementedClock(name: "continuousClock") }
}

private enum SuspendingClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = SuspendingClock()
  static var testValue: any Clock<Duration> { UnimplementedClock(name: "suspendingClock") }
}

/// A clock that fails the test the first time it is asked the time or to sleep, and does not
/// wait.
///
/// It reports once, not at every use: a timer on it loops without waiting, and one failure per
/// tick would bury the one line that says what to fix under as many copies as the loop ran,
/// a number that depends on how the test was scheduled.
struct UnimplementedClock: Clock {
  let name: String
  private let base = ContinuousClock()
  private let reported = _Once()

  var now: ContinuousClock.Instant {
    report()
    return base.now
  }

  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    report()
    try Task.checkCancellation()
  }

  private func report() {
    guard reported.first() else { return }
    reportRuntimeWarningAtUserSite(
      """
      The '\(name)' dependency was used in a test without being overridden.

      Set it where the store is created, for example:

        withDependencies: { $0.\(name) = TestClock() }
      """,
      fileID: #fileID, line: #line)
  }
}

/// True the first time it is asked, false ever after, from any thread.
private final class _Once: Sendable {
  private let done = Atomic<Bool>(false)

  func first() -> Bool {
    !done.exchange(true, ordering: .relaxed)
  }
}
