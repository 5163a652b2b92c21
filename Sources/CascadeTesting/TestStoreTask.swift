import Cascade

/// The effects one `TestStore.send` started: wait for them, or cancel them.
///
/// ```swift
/// let task = await store.send(.startListening)
/// await store.receive(Feature.Action.update) { $0.value = 1 }
/// await task.cancel()
/// ```
public struct TestStoreTask: Hashable, Sendable {
  let task: StoreTask
  let timeout: Duration

  /// Cancels the effects and waits until they have ended.
  public func cancel() async {
    task.cancel()
    await task.finish()
  }

  /// Waits for the effects to finish; fails the test if they are still running after
  /// `timeout` (the store's timeout by default) in which the test's effects did no work.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let task = self.task
    // The test's executor: the timeout counts only while it is idle.
    let finished = await withTimeout(timeout, idleOn: .current) { await task.cascade?.wait() }
    if !finished, task.cascade?.isRunning == true {
      reportFailure(
        "Expected the effects of this send to finish, but they were still running after \(timeout).",
        at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { task.isCancelled }
}
