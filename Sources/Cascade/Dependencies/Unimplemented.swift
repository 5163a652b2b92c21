/// Reports a problem the program can survive: a test failure when running tests (with
/// CascadeTesting), a warning on standard error otherwise. Dependencies' test values call it
/// for endpoints a test did not override.
///
/// ```swift
/// static let testValue = AnalyticsClient(track: { event in
///   reportIssue("AnalyticsClient.track(\(event)) was called but not overridden in this test.")
/// })
/// ```
public func reportIssue(_ message: String, fileID: StaticString = #fileID, line: UInt = #line) {
  reportRuntimeWarning(message, fileID: fileID, line: line)
}

/// Reports that `endpoint`, which has no implementation in this context, was called.
///
/// ```swift
/// static let testValue = SchoolClient(search: { _ in
///   reportUnimplemented("SchoolClient.search")
///   return []
/// })
/// ```
public func reportUnimplemented(
  _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) {
  reportRuntimeWarning(
    """
    Unimplemented: '\(endpoint)' was called.

    This endpoint has no implementation here (usually a test value). Override it for this \
    test, e.g. in the store's 'withDependencies:' closure.
    """,
    fileID: fileID, line: line)
}

/// The error an unimplemented throwing endpoint throws after reporting itself.
public struct UnimplementedError: Error, CustomStringConvertible {
  /// The endpoint that was called.
  public let endpoint: String

  /// The error for a call of `endpoint`, named as in its report.
  ///
  /// ```swift
  /// static let testValue = RankingClient(fetch: { _ in
  ///   reportUnimplemented("RankingClient.fetch")
  ///   throw UnimplementedError("RankingClient.fetch")
  /// })
  /// ```
  public init(_ endpoint: String) { self.endpoint = endpoint }

  /// `'RankingClient.fetch' is unimplemented`.
  public var description: String { "'\(endpoint)' is unimplemented" }
}

/// An endpoint that reports itself and throws ``UnimplementedError`` when called: the usual
/// test value of a client's throwing closure.
///
/// ```swift
/// static let testValue = RankingClient(fetch: unimplemented("RankingClient.fetch"))
/// ```
public func unimplemented<Input, Output>(
  _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (Input) async throws -> Output {
  { _ in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    throw UnimplementedError(endpoint)
  }
}

/// An endpoint that reports itself and returns `placeholder` when called.
///
/// ```swift
/// static let testValue = SettingsClient(load: unimplemented("SettingsClient.load", placeholder: .default))
/// ```
public func unimplemented<Input, Output: Sendable>(
  _ endpoint: String, placeholder: Output, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (Input) -> Output {
  { _ in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    return placeholder
  }
}

/// An endpoint without arguments that reports itself and returns `placeholder` when called.
///
/// ```swift
/// static let testValue = SettingsClient(tapCount: unimplemented("SettingsClient.tapCount", placeholder: 0))
/// ```
public func unimplemented<Output: Sendable>(
  _ endpoint: String, placeholder: Output, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable () -> Output {
  {
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    return placeholder
  }
}

/// An asynchronous endpoint without arguments that reports itself and throws
/// ``UnimplementedError`` when called.
public func unimplemented<Output>(
  _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable () async throws -> Output {
  {
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    throw UnimplementedError(endpoint)
  }
}
