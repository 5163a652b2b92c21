/// How a store made in a test finds the executor its effects' nonisolated work runs on.
///
/// CascadeTesting's `SerialTestExecutor` provides it: one serial executor per test, running
/// jobs on the main thread in turn with the test. A store whose dependency context is `.test`
/// asks for it once, when it is made. The type is found by its mangled name in the process's
/// type metadata, so a store sees it whenever CascadeTesting is linked, whatever ran before;
/// anywhere else (an app, a test process without CascadeTesting) effects run on the global
/// executor as usual.
package enum _TestEffectExecutor {
  /// `nonisolated(unsafe)`: a metatype, set once when first read and never written again.
  private nonisolated(unsafe) static let provider =
    _typeByName("14CascadeTesting18SerialTestExecutorC") as? any _TestEffectExecutorProvider.Type

  /// The executor for a store made now in `context`, or `nil` for the global executor.
  static func executor(for context: DependencyContext) -> (any TaskExecutor)? {
    guard context == .test, let provider else { return nil }
    return provider._executorForCurrentTest()
  }
}

/// What CascadeTesting's `SerialTestExecutor` gives a store made in a test.
package protocol _TestEffectExecutorProvider {
  /// The current test's executor.
  static func _executorForCurrentTest() -> any TaskExecutor
}
