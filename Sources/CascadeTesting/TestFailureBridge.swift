import Cascade
import Testing
import XCTest

/// Makes Cascade's runtime warnings (an action for an absent child, an effect error nobody
/// handled, a dependency used in a test without a test value, an unimplemented endpoint called)
/// fail the test that caused them, in Swift Testing or XCTest, at the file and line the warning
/// names.
///
/// CascadeTesting calls this for you when you create a `TestClock` or an `ImmediateClock`; call
/// it yourself (once, anywhere) in a test target that uses plain stores only.
///
/// ```swift
/// @Test func loadsOnAppear() async {
///   reportRuntimeWarningsAsTestFailures()
///   let store = Store(initialState: Feature.State()) { Feature() }
///   // ...
/// }
/// ```
public func reportRuntimeWarningsAsTestFailures() {
  _ = TestFailureBridge.installed
}

enum TestFailureBridge {
  static let installed: Void = {
    RuntimeWarnings.fallback.withLock { $0 = { record($0) } }
    // Named here so that a release build keeps the hooks (see `_TestSupport`): without them a
    // test store's effects run on the global executor, not in turn with the test.
    _TestSupport.register(TestSupportHooks.self)
  }()

  /// Records `warning` in the framework running the current test.
  static func record(_ warning: RuntimeWarning) -> Bool {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: warning.message),
        sourceLocation: SourceLocation(
          fileID: warning.fileID, filePath: warning.fileID, line: Int(warning.line), column: 1))
      return true
    }
    // Outside an XCTest case this records nothing, so the warning is printed as well.
    XCTFail(warning.message, file: warning.staticFileID, line: warning.line)
    return false
  }
}
