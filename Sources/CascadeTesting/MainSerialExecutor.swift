import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs every task of the process on the main thread, one job at a time, while a test store
/// or a test clock is alive: what makes a test of effects deterministic.
///
/// The Swift runtime sends every job meant for the global concurrent pool through
/// `swift_task_enqueueGlobal_hook` when it is set; the hook hands the job to the main executor
/// instead (`swift_task_enqueueMainExecutor`). Effects then run interleaved with the test at
/// its suspension points, in the order they were scheduled, never in parallel with it: an
/// effect that does 100 ms of work before its first `sleep` reaches that `sleep` before the test
/// goes on. Both symbols are exported by the Swift runtime on Linux and Apple platforms and
/// found with `dlsym`, as TCA's main serial executor does; where they are missing, nothing is
/// installed and tests fall back to the global pool.
///
/// Jobs whose `sleep` ends in real time are still resumed by the pool; everything they
/// schedule after that comes back here.
enum MainSerialExecutor {
  private typealias Enqueue = @convention(thin) (UnownedJob) -> Void
  private typealias Hook = @convention(thin) (UnownedJob, Enqueue) -> Void

  /// `nonisolated(unsafe)`: written once, when the first store or clock is made; the runtime
  /// reads it on every global enqueue. Only `users` (under its mutex) decides what it holds.
  private nonisolated(unsafe) static let hook: UnsafeMutablePointer<Hook?>? = symbol(
    "swift_task_enqueueGlobal_hook")?.assumingMemoryBound(to: Hook?.self)

  /// How many test stores and clocks want the executor.
  private static let users = Mutex(0)

  /// Counts the jobs the hook moved: `settle()` watches it to tell when effects are quiet.
  static let enqueued = Atomic<Int>(0)

  /// Whether the hook could be found (and is installed while anyone uses it).
  static var isAvailable: Bool { hook != nil && mainEnqueue != nil }

  /// Starts using the executor; balance with ``release()``.
  static func retain() {
    guard let hook, mainEnqueue != nil else { return }
    users.withLock { users in
      users += 1
      if users == 1 { hook.pointee = { job, _ in MainSerialExecutor.enqueueOnMain(job) } }
    }
  }

  /// Stops using the executor; the last user uninstalls the hook.
  static func release() {
    guard let hook, mainEnqueue != nil else { return }
    users.withLock { users in
      users -= 1
      if users == 0 { hook.pointee = nil }
    }
  }

  private static func enqueueOnMain(_ job: UnownedJob) {
    enqueued.add(1, ordering: .relaxed)
    mainEnqueue?(job)
  }

  /// The runtime's entry point for a job meant for the main thread.
  private static let mainEnqueue: Enqueue? = symbol("swift_task_enqueueMainExecutor").map {
    unsafeBitCast($0, to: Enqueue.self)
  }

  /// Lets the jobs already scheduled run, and the jobs they schedule, until the effects under
  /// test are quiet. Each round is a yield of the main actor, which goes to the back of the main
  /// thread's queue, behind every job scheduled before it: a task `n` hops away from its next
  /// suspension gets there within `n` rounds, whatever else runs. It stops after three rounds
  /// in which no job was moved to the main thread, or after 32 (other tests running in parallel
  /// keep the count moving; 32 hops is far deeper than an effect goes between suspensions).
  @MainActor
  static func settle() async {
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

  private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
      dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)  // RTLD_DEFAULT
    #else
      dlsym(dlopen(nil, RTLD_NOW), name)
    #endif
  }
}
