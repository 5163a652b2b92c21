/// An issue Cascade reported at run time: a `reportIssue` call, an unimplemented endpoint
/// called, an action for a child that is gone, an effect error nobody handled.
///
/// ```swift
/// setIssueHandler { issue in print("\(issue.fileID):\(issue.line): \(issue.message)") }
/// ```
public struct ReportedIssue: Sendable, Equatable, CustomStringConvertible {
  /// What happened and how to fix it.
  public let message: String
  /// The file the issue names (`Module/File.swift`): the code that reported it, or the user's
  /// code that reached it.
  public let fileID: String
  /// The line in `fileID`.
  public let line: UInt

  /// Creates an issue; Cascade makes these for you.
  ///
  /// ```swift
  /// let issue = ReportedIssue(message: "saving failed", fileID: "App/Save.swift", line: 12)
  /// ```
  public init(message: String, fileID: String, line: UInt) {
    self.message = message
    self.fileID = fileID
    self.line = line
  }

  /// `fileID:line: message`.
  public var description: String { "\(fileID):\(line): \(message)" }
}

/// Sends the issues Cascade reports from now on (see ``reportIssue(_:fileID:line:)``) to
/// `handler` instead of standard error, for the whole process: for a program that shows them
/// to its user in its own words, or logs them.
///
/// A program sets it once, at launch. CascadeTesting sets its own handler, which fails the
/// running test, when a test store or a test clock is made (or
/// `reportRuntimeWarningsAsTestFailures()` is called); a test that wants to see the issues an
/// operation reports uses CascadeTesting's `withIssueHandler(_:operation:)`, which holds for
/// that operation only.
///
/// ```swift
/// // main.swift of a command-line tool
/// setIssueHandler { issue in
///   FileHandle.standardError.write(Data("mytool: \(issue.message)\n".utf8))
/// }
/// ```
public func setIssueHandler(_ handler: @escaping @Sendable (ReportedIssue) -> Void) {
  RuntimeWarnings.fallback.withLock { fallback in
    fallback = { warning in
      handler(ReportedIssue(message: warning.message, fileID: warning.fileID, line: warning.line))
      return true
    }
  }
}
