/// A clock whose sleeps return at once while its time still moves forward: for tests and
/// previews that only care about what happens after a delay, not when.
///
/// ```swift
/// let store = Store(initialState: Splash.State()) { Splash() } withDependencies: {
///   $0.continuousClock = ImmediateClock()
/// }
/// ```
public struct ImmediateClock: Clock, Sendable {
  private let start = TestClock()

  /// Creates a clock at time zero.
  public init() {}

  /// The current instant: moved forward by every sleep.
  public var now: TestClock.Instant { start.now }
  /// `.zero`.
  public var minimumResolution: Duration { .zero }

  /// Moves the clock to `deadline`, if that is later, and returns after a yield; throws
  /// `CancellationError` if the task is cancelled.
  public func sleep(until deadline: TestClock.Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    await start.advance(to: deadline)
    await Task.yield()
  }
}
