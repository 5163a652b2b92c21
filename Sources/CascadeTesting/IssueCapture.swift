import Cascade

/// Runs `operation`, handing every issue Cascade reports while it runs (`reportIssue`,
/// an unimplemented endpoint called, an effect error nobody handled) to `handler` instead of
/// failing the test: for a test of code whose job is to report an issue (a save that failed),
/// which checks what was reported, or what the report could see when it ran.
///
/// `handler` runs where the issue is reported, on that thread, before `reportIssue` returns.
/// It holds for `operation` and the tasks it starts that inherit task-local values, not for a
/// thread `operation` starts.
///
/// ```swift
/// @Test func aFailedSaveIsReported() {
///   let reported = LockIsolated<[String]>([])
///   withIssueHandler({ issue in reported.withValue { $0.append(issue.message) } }) {
///     client.save(profile)  // the folder is read-only
///   }
///   #expect(reported.value.count == 1)
/// }
/// ```
public func withIssueHandler<Result>(
  _ handler: @escaping @Sendable (ReportedIssue) -> Void,
  operation: () throws -> Result
) rethrows -> Result {
  try RuntimeWarnings.$handler.withValue(RuntimeWarningHandler(handlerOfWarnings(handler))) {
    try operation()
  }
}

/// Runs the asynchronous `operation`, handing every issue Cascade reports while it runs (the
/// effects it starts included, while they run inside it) to `handler` instead of failing the
/// test. See the synchronous `withIssueHandler(_:operation:)`.
///
/// ```swift
/// let reported = LockIsolated<[ReportedIssue]>([])
/// await withIssueHandler({ issue in reported.withValue { $0.append(issue) } }) {
///   await store.send(.saveTapped).finish()
/// }
/// #expect(reported.value.map(\.message) == ["Could not save the profile: the disk is full"])
/// ```
public func withIssueHandler<Result>(
  _ handler: @escaping @Sendable (ReportedIssue) -> Void,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> Result
) async rethrows -> Result {
  try await RuntimeWarnings.$handler.withValue(RuntimeWarningHandler(handlerOfWarnings(handler))) {
    try await operation()
  }
}

private func handlerOfWarnings(
  _ handler: @escaping @Sendable (ReportedIssue) -> Void
) -> @Sendable (RuntimeWarning) -> Void {
  { warning in
    handler(ReportedIssue(message: warning.message, fileID: warning.fileID, line: warning.line))
  }
}
