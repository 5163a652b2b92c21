import Testing

/// Waits until `condition` holds, checking it after each yield and, after the first hundred
/// checks, every millisecond: for a test waiting on work that runs on the global pool or in
/// another thread, where nothing can be awaited directly.
///
/// It has no limit of its own: a count of yields or a short sleep would pass or fail with the
/// machine's load. A condition that never holds ends at the test's time limit, which names it
/// (and cancels the wait).
///
/// ```swift
/// store.send(.onAppear)
/// await pollUntil { spy.observerCount == 1 }
/// ```
package func pollUntil(
  isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async {
  var checks = 0
  while !condition(), !Task.isCancelled {
    checks += 1
    if checks < 100 {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}

extension Trait where Self == TimeLimitTrait {
  /// The time after which a hung test of this package fails. Swift Testing starts every test of
  /// the run at once and interleaves them, so a test's wall time is about the whole run's (20 s
  /// for the suite under ThreadSanitizer here, two to three times that on a slower or busy
  /// machine), whatever its own work: the limit sits far above that, so that only a hang
  /// reaches it.
  package static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
