import Cascade
import CascadeTesting
import Testing

/// How long a test waits for something that should come soon before it fails: a minute, far
/// above what the machine's load adds to a wait (a whole run of the suite takes about 20 s
/// under ThreadSanitizer here), and far below the ten minutes of `.hangGuard`.
public let testDeadline: Duration = .seconds(60)

/// Runs `work` (a wait: a stream's next value, a latch, a task's value) and, if it is still
/// running after `limit` of running time (``RunningTime``: a paused machine does not use it up),
/// records a failure naming `awaited` and cancels the waiting task, so
/// a regression fails the test in a minute instead of hanging the run until its time limit.
///
/// The work runs in the calling task, on the caller's actor, so it may use the caller's state
/// (an iterator kept between waits, a main-actor store; call an iterator's
/// `next(isolation: #isolation)` so that it stays there). A wait that cancellation ends
/// (`AsyncStream` iteration, `Task.sleep`, `Latch.wait`, a store's `values(of:)`) ends at the
/// deadline; for a task's value, which cancelling the waiting task does not end, use
/// `withDeadline(_:within:sourceLocation:resultOf:)` or `valueOf:` below.
///
/// ```swift
/// var counts = store.values(of: \.count).makeAsyncIterator()
/// let first = await withDeadline("the first count") {
///   await counts.next(isolation: #isolation)
/// }
/// #expect(first == 0)
/// ```
///
/// Once the deadline has passed the test's task stays cancelled: what the test awaits next ends
/// at once, and the test fails with this helper's message first.
public func withDeadline<Result, Failure: Error>(
  _ awaited: String,
  within limit: Duration = testDeadline,
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ work: () async throws(Failure) -> Result
) async throws(Failure) -> Result {
  let waiting = WaitingTask(handle: withUnsafeCurrentTask { $0 })
  let outcome = await withTaskGroup(
    of: Void.self, returning: Swift.Result<Result, Failure>.self, isolation: isolation
  ) { group in
    group.addTask {
      // Cancelled when the work ends first: nothing to report.
      guard (try? await RunningTime.sleep(for: limit)) != nil else { return }
      Issue.record(
        "Waited \(limit) for \(awaited): gave up (the test's deadline)",
        sourceLocation: sourceLocation)
      waiting.handle?.cancel()
    }
    let outcome: Swift.Result<Result, Failure>
    do throws(Failure) {
      outcome = .success(try await work())
    } catch {
      outcome = .failure(error)
    }
    group.cancelAll()
    return outcome
  }
  return try outcome.get()
}

/// The task `withDeadline` runs its work in, for its watchdog to cancel. `@unchecked Sendable`:
/// the handle is used only by that watchdog, a child task of the task it refers to, which the
/// task group keeps from outliving it, and only for `cancel()`, one of the operations another
/// task may call on it (those `Task` has too).
private struct WaitingTask: @unchecked Sendable {
  let handle: UnsafeCurrentTask?
}

/// Waits for `task` to end and returns its result, or, if it is still running after `limit`,
/// records a failure naming `awaited` and returns `nil`: for a task that may ignore
/// cancellation, whose `value` the `withDeadline` above could not end.
///
/// The task is awaited from a task of its own, left behind if it never ends.
///
/// ```swift
/// task.cancel()
/// #expect(await withDeadline("the cancelled task to end", resultOf: task) != nil)
/// ```
public func withDeadline<Success: Sendable, Failure: Error>(
  _ awaited: String,
  within limit: Duration = testDeadline,
  sourceLocation: SourceLocation = #_sourceLocation,
  resultOf task: Task<Success, Failure>
) async -> Swift.Result<Success, Failure>? {
  await withCheckedContinuation { continuation in
    let waiting = Guarded<CheckedContinuation<Swift.Result<Success, Failure>?, Never>?>(
      continuation)
    // Whichever comes first resumes the test; taken out of the lock before it is resumed.
    let resume: @Sendable (Swift.Result<Success, Failure>?) -> Void = { outcome in
      let first = waiting.withLock { waiting in
        defer { waiting = nil }
        return waiting
      }
      first?.resume(returning: outcome)
    }
    let watchdog = Task {
      guard (try? await RunningTime.sleep(for: limit)) != nil else { return }
      Issue.record(
        "Waited \(limit) for \(awaited): gave up (the test's deadline)",
        sourceLocation: sourceLocation)
      resume(nil)
    }
    Task {
      let outcome = await task.result
      watchdog.cancel()
      resume(outcome)
    }
  }
}

/// `task`'s value, or `nil` (and a failure naming `awaited`) when it has not ended after
/// `limit`: `withDeadline(_:within:sourceLocation:resultOf:)` for a task that cannot fail.
///
/// ```swift
/// #expect(await withDeadline("the consumer to end", valueOf: consumer) == [0])
/// ```
public func withDeadline<Success: Sendable>(
  _ awaited: String,
  within limit: Duration = testDeadline,
  sourceLocation: SourceLocation = #_sourceLocation,
  valueOf task: Task<Success, Never>
) async -> Success? {
  await withDeadline(awaited, within: limit, sourceLocation: sourceLocation, resultOf: task)
    .map { $0.get() }
}

/// `task`'s value, its error thrown, or `nil` (and a failure naming `awaited`) when it has not
/// ended after `limit`.
///
/// ```swift
/// await clock.advance(by: .seconds(1))
/// try await withDeadline("the sleeper to wake", valueOf: sleeper)
/// ```
@discardableResult
public func withDeadline<Success: Sendable>(
  _ awaited: String,
  within limit: Duration = testDeadline,
  sourceLocation: SourceLocation = #_sourceLocation,
  valueOf task: Task<Success, any Error>
) async throws -> Success? {
  try await withDeadline(awaited, within: limit, sourceLocation: sourceLocation, resultOf: task)?
    .get()
}
