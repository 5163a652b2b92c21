import Cascade

extension TestClock {
  /// Moves time forward `step` at a time until every effect `task` started (and every effect
  /// those effects' actions started) has ended: the way to let an app settle after a fuzzing
  /// step whose effects sleep on this clock. Returns whether they all ended within `maxSteps`.
  ///
  /// ```swift
  /// let fuzzer = Fuzzer<Splash.State, Splash.Action, TestClock>(steps: 1_000) {
  ///   // ...
  /// } action: { state, clock, random in
  ///   // ...
  /// } settle: { task, clock in
  ///   await clock.advance(by: .milliseconds(100), untilFinished: task)
  /// } invariant: { step, clock in
  ///   // ...
  /// }
  /// ```
  ///
  /// An effect that never ends (a listener, a timer) keeps the task running: advance by a fixed
  /// amount after such actions instead.
  @discardableResult
  public func advance(
    by step: Duration, untilFinished task: StoreTask, maxSteps: Int = 1_000
  ) async -> Bool {
    for _ in 0..<maxSteps {
      await settle()
      guard task.cascade?.isRunning == true else { return true }
      await advance(by: step)
    }
    return task.cascade?.isRunning != true
  }
}
