@testable import Cascade

/// A number dependency, 0 unless a test overrides it: for tests that set a value and check
/// what a reducer or an effect reads back.
private enum TestNumberKey: DependencyKey {
  static let liveValue = 0
  static let testValue = 0
}

extension DependencyValues {
  var testNumber: Int {
    get { self[TestNumberKey.self] }
    set { self[TestNumberKey.self] = newValue }
  }
}
