import Testing

/// The Swift Testing test running now, and the case of a parameterized test: what keeps one
/// test's storage and executor apart from another's when tests run in parallel.
///
/// Swift Testing gives a case no public identity, so its arguments' description (which holds
/// their values) stands in for one.
struct TestKey: Hashable {
  let test: Test.ID
  let testCase: String

  /// The current test's key, or `nil` outside a Swift Testing test (in XCTest, which runs one
  /// test at a time, or in a task detached from the test).
  static var current: TestKey? {
    guard let test = Test.current else { return nil }
    let testCase = Test.Case.current.flatMap { $0.isParameterized ? String(reflecting: $0) : nil }
    return TestKey(test: test.id, testCase: testCase ?? "")
  }
}
