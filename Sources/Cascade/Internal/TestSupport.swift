/// What CascadeTesting gives the library when it is linked into the process: the running
/// test's serial executor (where a test's store runs its effects) and shared-state storage.
///
/// The hooks are found by their type's mangled name in the process's type metadata: a store or
/// a `Shared` made on a test's first line sees them whether or not anything of CascadeTesting
/// ran before. A release build's linker drops the metadata of a type no kept code names, and
/// the hooks' type is named by nothing but that string: there, CascadeTesting also registers
/// them as soon as a test store or a test clock is made (``register(_:)``), which keeps the type
/// and covers stores made from then on. In an app, or a test process without CascadeTesting,
/// there are none: effects run on the global executor and shared state in one in-memory
/// storage per process.
package enum _TestSupport {
  /// `nonisolated(unsafe)`: a metatype, set once when first read and never written again.
  nonisolated(unsafe) private static let named =
    _typeByName("14CascadeTesting16TestSupportHooksO") as? any _TestSupportHooks.Type

  /// The hooks CascadeTesting registered, for a process whose linker dropped them from the
  /// metadata `named` searches. `nonisolated(unsafe)`: only read and written under its lock,
  /// and what it holds is a metatype, which nothing mutates.
  nonisolated(unsafe) private static let registered = Guarded<(any _TestSupportHooks.Type)?>(nil)

  /// CascadeTesting's hooks, or `nil` in a process without CascadeTesting.
  static var hooks: (any _TestSupportHooks.Type)? {
    named ?? registered.withLock { $0 }
  }

  /// Called by CascadeTesting before it makes a test store or a test clock.
  package static func register(_ hooks: any _TestSupportHooks.Type) {
    registered.withLock { $0 = hooks }
  }

  /// The executor for the effects of a store made now in `context`, or `nil` for the global
  /// executor.
  static func effectExecutor(for context: DependencyContext) -> (any TaskExecutor)? {
    guard context == .test, let hooks else { return nil }
    return hooks.serialExecutorForCurrentTest()
  }
}

/// CascadeTesting's `TestSupportHooks` (see ``_TestSupport``): keep its module and name, or the
/// library stops finding it (CascadeTesting's `SerialTestExecutorTests` and
/// `SharedTestStoreTests` fail).
package protocol _TestSupportHooks {
  /// The running test's serial executor.
  static func serialExecutorForCurrentTest() -> any TaskExecutor
  /// The running test's shared-state storage.
  static func sharedStorageForCurrentTest() -> SharedStorage
}
