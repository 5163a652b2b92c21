import Cascade
import Foundation
import Testing
import XCTest

/// Gives every test its own in-memory ``SharedStorage``: keyed `Shared` values made in one test
/// (its body, its stores, their effects) are never seen by another, even when Swift Testing
/// runs them in parallel, and no real file or user default is touched unless the test sets
/// `$0.sharedStorage` itself.
///
/// A Swift Testing test is told apart by `Test.current`, and each case of a parameterized test
/// by its arguments (`Test.Case.current`); XCTest runs one test at a time, and each gets a fresh
/// storage when it starts.
enum TestSharedStorage {
  /// Starts each XCTest test with a fresh storage, from the first test that asks for one on.
  private static let observing: Void = {
    XCTestObservationCenter.shared.addTestObserver(XCTestStorageReset.shared)
  }()

  private static let perTest = Guarded<[TestKey: SharedStorage]>([:])
  fileprivate static let xctest = Guarded<SharedStorage?>(nil)

  static func storageForCurrentTest() -> SharedStorage {
    if let key = TestKey.current {
      return perTest.withLock { storages in
        if let storage = storages[key] { return storage }
        let storage = SharedStorage.inMemory()
        storages[key] = storage
        return storage
      }
    }
    _ = observing
    return xctest.withLock { storage in
      if let storage { return storage }
      let fresh = SharedStorage.inMemory()
      storage = fresh
      return fresh
    }
  }
}

/// Starts each XCTest test with a fresh storage.
private final class XCTestStorageReset: NSObject, XCTestObservation, Sendable {
  static let shared = XCTestStorageReset()

  func testCaseWillStart(_ testCase: XCTestCase) {
    TestSharedStorage.xctest.withLock { $0 = SharedStorage.inMemory() }
  }
}
