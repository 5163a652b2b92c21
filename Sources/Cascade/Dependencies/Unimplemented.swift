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
///
/// In a test, the report names the user's code that reached the endpoint (the test store's
/// `send` whose reducer called it, or the `.run` whose effect did), which is where an override
/// is missing; the message says where the endpoint was declared (`fileID` and `line`). Outside
/// a test store, it names `fileID` and `line`.
public func reportUnimplemented(
  _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) {
  var message = """
    Unimplemented: '\(endpoint)' was called.

    This endpoint has no implementation here (usually a test value). Override it for this \
    test, e.g. in the store's 'withDependencies:' closure.
    """
  // The library's own test values (uuid, date, ...) are declared in Cascade: naming that file
  // would send the reader to code they cannot change.
  if _UserSite.current != nil, !"\(fileID)".hasPrefix("Cascade/") {
    message += " (Declared at \(fileID):\(line).)"
  }
  reportRuntimeWarningAtUserSite(message, fileID: fileID, line: line)
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
/// test value of a client's throwing closure, whatever its arguments.
///
/// ```swift
/// static let testValue = RankingClient(
///   fetch: unimplemented("RankingClient.fetch"),          // (School) async throws -> Ranking
///   save: unimplemented("RankingClient.save")             // (Ranking, URL) throws -> Void
/// )
/// ```
public func unimplemented<each Input, Output>(
  _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Input) async throws -> Output {
  { (_: repeat each Input) in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    throw UnimplementedError(endpoint)
  }
}

/// A synchronous endpoint that reports itself and throws ``UnimplementedError`` when called.
///
/// ```swift
/// static let testValue = StorageClient(load: unimplemented("StorageClient.load"))
/// ```
public func unimplemented<each Input, Output>(
  _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Input) throws -> Output {
  { (_: repeat each Input) in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    throw UnimplementedError(endpoint)
  }
}

/// An endpoint that reports itself and returns `placeholder` when called, whatever its
/// arguments; it fits a throwing or `async` endpoint too (it never throws).
///
/// ```swift
/// static let testValue = SpeechClient(
///   authorizationStatus: unimplemented("SpeechClient.authorizationStatus", placeholder: .denied),
///   requestAuthorization: unimplemented("SpeechClient.requestAuthorization", placeholder: .denied)
/// )
/// ```
public func unimplemented<each Input, Output: Sendable>(
  _ endpoint: String, placeholder: Output, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Input) -> Output {
  { (_: repeat each Input) in
    reportUnimplemented(endpoint, fileID: fileID, line: line)
    return placeholder
  }
}
