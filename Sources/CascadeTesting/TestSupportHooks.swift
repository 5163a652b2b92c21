import Cascade

/// What the library asks of CascadeTesting in a test: found by this type's name (see
/// `_TestSupport` in Cascade), so a store or a `Shared` made on a test's first line uses the
/// test's executor and storage whatever ran before in the process. Keep the type's module and
/// name: `SerialTestExecutorTests` and `SharedTestStoreTests` fail when the library no longer
/// finds it.
enum TestSupportHooks: _TestSupportHooks {
  static func serialExecutorForCurrentTest() -> any TaskExecutor { SerialTestExecutor.current }
  static func sharedStorageForCurrentTest() -> SharedStorage {
    TestSharedStorage.storageForCurrentTest()
  }
}
