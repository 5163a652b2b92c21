/// Time that passes while the process runs: what a test's deadline measures.
///
/// A deadline read off the wall clock is used up by time in which the test could not run at
/// all: a virtual machine paused by its host, a job stopped with Ctrl-Z and continued. When the
/// process runs again, the deadline's timer and the work it guards wake together, and whichever
/// runs first decides the test: CI lost three such races after its machine stood still for
/// about eight minutes in the middle of `swift test`, failing waits that take milliseconds.
///
/// Running time is read in steps, and a step counts for at most ``longestStep``: a process that
/// stood still for minutes counts a second, while a wait on a machine that is merely busy (where
/// each step takes a little longer than asked) counts almost all of its wall time.
package struct RunningTime {
  /// The most a single step counts for: far above what a loaded machine adds to a short
  /// sleep, far below a pause.
  package static let longestStep: Duration = .seconds(1)

  /// How long ``sleep(for:step:now:sleep:)`` sleeps between two readings.
  package static let step: Duration = .milliseconds(250)

  private let now: () -> ContinuousClock.Instant
  private var last: ContinuousClock.Instant

  /// The running time counted since this value was made, as of the last ``read()``.
  package private(set) var elapsed: Duration = .zero

  /// Starts counting now, as `now` tells it (the continuous clock unless a test gives another).
  package init(now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }) {
    self.now = now
    self.last = now()
  }

  /// Counts the time since the last reading, at most ``longestStep`` of it, and returns the
  /// running time so far.
  @discardableResult
  package mutating func read() -> Duration {
    let current = now()
    elapsed += min(max(current - last, .zero), Self.longestStep)
    last = current
    return elapsed
  }

  /// Sleeps until `limit` of running time has passed, reading it every `step`; throws
  /// `CancellationError` as soon as the calling task is cancelled, as `Task.sleep` does.
  package static func sleep(
    for limit: Duration,
    step: Duration = RunningTime.step,
    now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now },
    sleep: (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) async throws {
    var time = RunningTime(now: now)
    while time.elapsed < limit {
      try await sleep(min(limit - time.elapsed, step))
      time.read()
    }
  }
}
