import Cascade
import Dispatch
import Synchronization

/// The executor that runs a test's effects one job at a time on the main thread, in turn with
/// the test: what makes a test of effects deterministic without touching any other test.
///
/// Every test gets its own (each case of a parameterized test too). A store made in the test
/// (a ``TestStore``'s, or a `Store` with test dependencies) starts each effect task with this
/// executor as its preference, so the effect's nonisolated work, its child tasks and the actors
/// it calls run here instead of on the global pool, in the order they were scheduled, never in
/// parallel with the test: an effect that does 100 ms of work before its first `sleep` reaches
/// that `sleep` before the test goes on. ``TestClock`` and ``TestStore`` wait on it to let woken
/// effects run until they suspend again. Tasks of other tests, and tasks a test starts itself,
/// run on the global pool as usual.
///
/// A task you start yourself and want run in turn with the test clock (a sleeper in a test of
/// your own clock-driven code) takes it as its preference:
///
/// ```swift
/// let clock = TestClock()
/// let ticks = Task(executorPreference: SerialTestExecutor.current) {
///   for await _ in clock.timer(interval: .seconds(1)).prefix(3) { count.withLock { $0 += 1 } }
/// }
/// await clock.advance(by: .seconds(3))  // all three ticks have been counted
/// ```
///
/// An unstructured `Task { }` made inside an effect does not inherit the preference (Swift's
/// rule for task executors); give it one the same way, or use a child task (`async let`, a
/// task group), which does.
public final class SerialTestExecutor: TaskExecutor, Sendable {
  /// Jobs this executor was given: ``settle()`` watches it to tell when the test's effects are
  /// quiet.
  private let enqueued = Atomic<Int>(0)

  private init() {}

  /// Jobs given and not yet run to their end (waiting behind other work on the main thread,
  /// or running).
  private let unfinished = Atomic<Int>(0)

  /// How many jobs the executor has been given so far: a wait that sees it move knows the
  /// test's effects are still working.
  var progress: Int { enqueued.load(ordering: .relaxed) }

  /// Whether a job of the test's effects is waiting to run or running: the effects are not
  /// idle, however long the machine takes to get to it.
  var isWorking: Bool { unfinished.load(ordering: .relaxed) > 0 }

  /// Returns once a whole `period` has passed in which the executor was given no job and had
  /// none waiting or running at its end (effects that keep working on a slow or busy machine
  /// are waited for), or when the waiting task is cancelled.
  func waitUntilIdle(for period: Duration) async {
    var seen = progress
    while true {
      try? await RunningTime.sleep(for: period)
      guard !Task.isCancelled, progress != seen || isWorking else { return }
      seen = progress
    }
  }

  /// Runs `job` on the main thread after every job already queued there, isolated to the main
  /// actor as a main-actor job is, with this executor kept as its task's preference.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    enqueued.add(1, ordering: .relaxed)
    unfinished.add(1, ordering: .relaxed)
    DispatchQueue.main.async {
      job.runSynchronously(
        isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: self.asUnownedTaskExecutor())
      self.unfinished.subtract(1, ordering: .relaxed)
    }
  }

  /// The executor of the test running now: the same one for everything in one test (its
  /// stores, its clocks, its test store), another one for each other test. Outside a Swift
  /// Testing test (XCTest runs one test at a time) one executor serves the process.
  public static var current: SerialTestExecutor {
    guard let key = TestKey.current else { return process }
    return perTest.withLock { executors in
      if let executor = executors[key]?.executor { return executor }
      executors = executors.filter { $0.value.executor != nil }
      let executor = SerialTestExecutor()
      executors[key] = Weak(executor: executor)
      return executor
    }
  }

  /// Lets the jobs already scheduled run, and the jobs they schedule, until this test's
  /// effects are quiet. Each round is a yield of the main actor, which goes to the back of the
  /// main thread's queue, behind every job scheduled before it: a task `n` hops away from its
  /// next suspension gets there within `n` rounds, whatever else runs. It stops after three
  /// rounds in which this executor was given no job, or after 32 (an effect that never
  /// suspends on anything but a yield never gets quiet). Other tests' jobs share the main
  /// thread, so they can make a round take longer, but never make it count as busy.
  @MainActor
  func settle() async {
    var last = enqueued.load(ordering: .relaxed)
    var quietRounds = 0
    for _ in 0..<32 {
      await Task.yield()
      let now = enqueued.load(ordering: .relaxed)
      if now == last {
        quietRounds += 1
        if quietRounds == 3 { return }
      } else {
        last = now
        quietRounds = 0
      }
    }
  }

  private struct Weak {
    weak var executor: SerialTestExecutor?
  }

  private static let perTest = Guarded<[TestKey: Weak]>([:])
  private static let process = SerialTestExecutor()
}
