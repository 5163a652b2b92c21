import Cascade

/// A clock whose time moves only when a test advances it, so a test of a debounce, a timer or
/// a splash screen never waits on the wall clock.
///
/// ```swift
/// let clock = TestClock()
/// let store = Store(initialState: Search.State()) { Search() } withDependencies: {
///   $0.continuousClock = clock
/// }
/// store.send(.queryChanged("seoul"))
/// await clock.advance(by: .milliseconds(299))   // nothing yet
/// await clock.advance(by: .milliseconds(1))     // the debounced search runs
/// ```
///
/// Sleepers whose deadline is reached are resumed in deadline order.
public final class TestClock: Clock, Sendable {
  /// A point in the test clock's time: an offset from its start.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since the clock started.
    public let offset: Duration

    /// The instant `offset` after the clock's start.
    public init(offset: Duration = .zero) { self.offset = offset }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    /// The time from this instant to `other`.
    public func duration(to other: Self) -> Duration { other.offset - offset }
    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
    /// The offset, e.g. `1.5 seconds`.
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant()
    var nextID = 0
    var sleepers: [Int: Sleeper] = [:]
  }

  private let state = Guarded(State())

  /// Creates a clock at time zero (and makes Cascade's runtime warnings fail the test; see
  /// ``reportRuntimeWarningsAsTestFailures()``).
  public init() { reportRuntimeWarningsAsTestFailures() }

  /// The current instant: where the test last advanced the clock to.
  public var now: Instant { state.withLock { $0.now } }
  /// `.zero`.
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the test advances the clock to `deadline`, or returns after a yield if
  /// ``now`` is there already; throws `CancellationError` when the sleeping task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> Int? in
      guard deadline > state.now else { return nil }
      defer { state.nextID += 1 }
      return state.nextID
    }
    guard let id else {
      await Task.yield()
      try Task.checkCancellation()
      return
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          if deadline <= state.now { return true }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking each sleeper whose deadline is reached, earliest
  /// first, and giving the woken tasks a chance to run before moving on.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking sleepers as ``advance(by:)`` does.
  public func advance(to deadline: Instant) async {
    while let next = wakeEarliestOrArrive(at: deadline) {
      for sleeper in next { sleeper.continuation.resume() }
      await Self.settle()
    }
    await Self.settle()
  }

  /// Advances until no task sleeps on this clock.
  public func run() async {
    while let latest = state.withLock({ $0.sleepers.values.map(\.deadline).max() }) {
      await advance(to: latest)
    }
  }

  /// The sleepers due first, up to `deadline`; when none is due, moves `now` to `deadline` in
  /// the same critical section, so that a task going to sleep meanwhile is either woken here
  /// or sees the new time (else it could register between the two and never be woken).
  private func wakeEarliestOrArrive(at deadline: Instant) -> [Sleeper]? {
    state.withLock { state -> [Sleeper]? in
      guard
        let earliest = state.sleepers.values.map(\.deadline).min(), earliest <= deadline
      else {
        if state.now < deadline { state.now = deadline }
        return nil
      }
      state.now = max(state.now, earliest)
      let due = state.sleepers.filter { $0.value.deadline == earliest }
      for id in due.keys { state.sleepers[id] = nil }
      return Array(due.values)
    }
  }

  /// Lets tasks woken on other threads make progress before time moves again: yields only,
  /// never a wait on another task.
  static func settle() async {
    for _ in 0..<20 { await Task.yield() }
  }
}
