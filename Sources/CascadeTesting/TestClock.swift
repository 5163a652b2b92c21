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
  /// The executor of the test that made the clock: where the effects it wakes run.
  private let executor: SerialTestExecutor

  /// Creates a clock at time zero (and makes Cascade's runtime warnings fail the test; see
  /// ``reportRuntimeWarningsAsTestFailures()``). The effects of the test's stores run one job
  /// at a time on the test's ``SerialTestExecutor``, so what a woken effect does before it
  /// sleeps again is done before the clock moves on.
  public init() {
    reportRuntimeWarningsAsTestFailures()
    executor = .current
  }

  /// The current instant: where the test last advanced the clock to.
  public var now: Instant { state.withLock { $0.now } }
  /// `.zero`.
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The deadlines tasks sleep until, earliest first (one per sleeper): what an ``Explorer``
  /// advances to, and part of what it compares configurations by.
  var pendingDeadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline) }.sorted() }

  /// Suspends until the test advances the clock to `deadline` (a deadline that is ``now``, as
  /// for `sleep(for: .zero)`, waits for the next advance, as swift-clocks' test clock does), or
  /// returns after a yield if the deadline is already past; throws `CancellationError` when
  /// the sleeping task is cancelled, whenever the cancellation comes.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        enum Outcome { case wait, wake, cancel }
        // Decided under the lock that the cancellation handler takes too: a cancellation that
        // came before the sleeper is registered is seen here (the task is marked cancelled
        // before its handler runs), one that comes after finds the sleeper there. The deadline
        // is checked here too, so no advance can pass between the check and the registration.
        let outcome = state.withLock { state -> Outcome in
          if Task.isCancelled { return .cancel }
          if deadline < state.now { return .wake }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return .wait
        }
        switch outcome {
        case .wait: break
        case .wake: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline it passes: earliest
  /// deadline first, time set to that deadline, and each woken task left to run until it
  /// suspends again (so a timer that sleeps again from the new time is woken again) before time
  /// moves on.
  ///
  /// ```swift
  /// await store.send(.startTimer)
  /// await clock.advance(by: .seconds(3))  // three ticks of a one-second timer
  /// ```
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking sleepers as ``advance(by:)`` does.
  public func advance(to deadline: Instant) async {
    await settle()
    while let next = wakeEarliestOrArrive(at: deadline) {
      for sleeper in next { sleeper.continuation.resume() }
      await settle()
    }
    await settle()
  }

  /// Advances until no task sleeps on this clock. Effects started just before (by a `send`)
  /// are let run to their first sleep first.
  ///
  /// ```swift
  /// await store.send(.startButtonTapped)
  /// await clock.run()   // every delay elapses, however long
  /// await store.receive(Feature.Action.finished)
  /// ```
  ///
  /// A timer that never stops would keep this advancing forever: after `timeout` of real time
  /// with sleepers still waiting, the test fails at the call, the clock stays where it got to,
  /// and every sleep still waiting on it throws `CancellationError` (as in swift-clocks), so
  /// that nothing the test then awaits hangs.
  ///
  /// `timeout` is how long, in real time, to keep advancing. The default is one minute, not
  /// swift-clocks' 500 ms: a long but finite schedule on a slow or busy machine (200 sleeps
  /// took over 5 s in this project's loaded test run) must not fail a correct test; the
  /// timeout is there to end a timer that never stops. For the same reason it never gives up
  /// before it has advanced 500 times, however long those took: in a loaded parallel run under
  /// ThreadSanitizer, the main queue every test shares stalled for most of a minute, and a
  /// 20-sleep schedule was cut after one wake-up. A timer that never stops reaches 500 wake-ups
  /// in well under a second on an idle machine.
  public func run(
    timeout: Duration = .seconds(60),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    let started = ContinuousClock.now
    var advances = 0
    await settle()
    while let earliest = state.withLock({ $0.sleepers.values.map(\.deadline).min() }) {
      guard advances < Self.advancesBeforeGivingUp || ContinuousClock.now - started < timeout
      else {
        let waiting = state.withLock { state -> [Sleeper] in
          defer { state.sleepers.removeAll() }
          return Array(state.sleepers.values)
        }
        for sleeper in waiting { sleeper.continuation.resume(throwing: CancellationError()) }
        reportFailure(
          """
          TestClock.run(timeout: \(timeout)) gave up: tasks still slept on the clock after \
          advancing it to \(now) (the next wake-up was at \(earliest)); their sleeps were \
          cancelled. A timer that never stops keeps a clock running forever: cancel its effect \
          before calling run(), or advance by a fixed duration instead.
          """,
          at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
      }
      await advance(to: earliest)
      advances += 1
    }
  }

  /// How many times ``run(timeout:fileID:filePath:line:column:)`` advances before its timeout
  /// can end it: however slow the machine, a schedule of fewer wake-ups is never cut.
  package static let advancesBeforeGivingUp = 500

  /// The sleepers due first, up to `deadline`, in the order they went to sleep, with time moved
  /// to their deadline; when none is due, moves `now` to `deadline` in the same critical
  /// section, so that a task going to sleep meanwhile is either woken here or sees the new time
  /// (else it could register between the two and never be woken).
  private func wakeEarliestOrArrive(at deadline: Instant) -> [Sleeper]? {
    state.withLock { state -> [Sleeper]? in
      guard
        let earliest = state.sleepers.values.map(\.deadline).min(), earliest <= deadline
      else {
        if state.now < deadline { state.now = deadline }
        return nil
      }
      state.now = max(state.now, earliest)
      let due = state.sleepers.filter { $0.value.deadline == earliest }.keys.sorted()
      return due.compactMap { state.sleepers.removeValue(forKey: $0) }
    }
  }

  /// Lets woken tasks run until they suspend again.
  func settle() async { await executor.settle() }
}
