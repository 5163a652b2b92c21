import Testing

/// Waits until `condition` holds, and fails the test if it does not hold within `timeout`.
///
/// For a test waiting on work that runs on the global pool or on another thread (a live
/// client's observer registering, a file written by a background save), where there is nothing
/// to await directly. The condition is checked after each yield and, after the first hundred
/// checks, every millisecond.
///
/// If the condition still does not hold after `timeout` (of running time: a machine that stops
/// the process, a paused virtual machine, does not use it up), the wait records a test failure (in
/// Swift Testing or XCTest) at the line that called it, saying what was awaited, and returns
/// `false`, so a regression fails the test in about a minute instead of hanging the run. The
/// default timeout is far above the slowest a loaded machine takes, so that only a condition
/// that never holds reaches it. A cancelled wait returns `false` without recording anything.
///
/// ```swift
/// store.send(.onAppear)
/// await pollUntil("the ranking stream has an observer") { rankings.observerCount == 1 }
/// store.send(.onDisappear)
/// guard await pollUntil({ rankings.observerCount == 0 }) else { return }
/// ```
///
/// - Parameters:
///   - description: What is awaited, in words, for the failure's message.
///   - timeout: How long to wait before failing; a minute unless given.
///   - fileID: The file of the call, where a timeout is reported.
///   - filePath: The file's path, for XCTest.
///   - line: The line of the call, where a timeout is reported.
///   - column: The column of the call.
///   - isolation: The caller's actor, where `condition` is checked.
///   - condition: Checked in the caller's isolation until it returns `true`.
/// - Returns: `true` once the condition holds; `false` after a timeout or a cancellation.
@discardableResult
public func pollUntil(
  _ description: String? = nil,
  timeout: Duration = .seconds(60),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () -> Bool
) async -> Bool {
  var time = RunningTime()
  var checks = 0
  while !condition() {
    if Task.isCancelled { return false }
    if time.read() >= timeout {
      let awaited = description.map { "'\($0)'" } ?? "the condition passed to pollUntil"
      reportFailure(
        "Timed out after \(timeout) waiting for \(awaited) at \(fileID):\(line): it never "
          + "held. If the work it waits for is slow rather than stuck, pass a longer timeout.",
        at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
      return false
    }
    checks += 1
    if checks < 100 {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
  return true
}

extension Trait where Self == TimeLimitTrait {
  /// The time after which a hung test of this package fails. Swift Testing starts every test of
  /// the run at once and interleaves them, so a test's wall time is about the whole run's (20 s
  /// for the suite under ThreadSanitizer here, two to three times that on a slower or busy
  /// machine), whatever its own work: the limit sits far above that, so that only a hang
  /// reaches it.
  package static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
