import Testing
import XCTest

/// Where a test called a `TestStore` method: failures are reported there.
struct TestLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}

/// Fails the running test (Swift Testing or XCTest) at `location`.
func reportFailure(_ message: String, at location: TestLocation) {
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
  } else {
    XCTFail(message, file: location.filePath, line: location.line)
  }
}

/// Shows an assertion a non-exhaustive test skipped, without failing it: a known issue in Swift
/// Testing, a line on standard output under XCTest.
func reportSkipped(_ message: String, at location: TestLocation) {
  if Test.current != nil {
    withKnownIssue {
      Issue.record(
        Comment(rawValue: "Skipped assertion: " + message), sourceLocation: location.sourceLocation)
    }
  } else {
    print("\(location.filePath):\(location.line): skipped assertion: \(message)")
  }
}

extension TestLocation {
  var sourceLocation: SourceLocation {
    SourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}

/// Indents every line of `text`, for diffs inside failure messages.
func indented(_ text: String, by spaces: Int = 4) -> String {
  let pad = String(repeating: " ", count: spaces)
  return text.split(separator: "\n", omittingEmptySubsequences: false)
    .map { pad + $0 }.joined(separator: "\n")
}

/// Waits for `operation`, or gives up after `timeout` of running time (see ``RunningTime``): the
/// clock bounds only a test that is already failing.
///
/// With an `executor`, the time counts only while the test's effects are idle (see
/// ``SerialTestExecutor/waitUntilIdle(for:)``): only effects that wait on something outside
/// the test (real time, a device) time out.
package func withTimeout(
  _ timeout: Duration, idleOn executor: SerialTestExecutor? = nil,
  _ operation: @escaping @Sendable () async -> Void
) async
  -> Bool
{
  await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      await operation()
      return !Task.isCancelled
    }
    group.addTask {
      if let executor {
        await executor.waitUntilIdle(for: timeout)
      } else {
        try? await RunningTime.sleep(for: timeout)
      }
      return false
    }
    let first = await group.next() ?? false
    group.cancelAll()
    return first
  }
}
