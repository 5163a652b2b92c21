import Foundation

/// A problem Cascade noticed at run time that does not stop the program: an action for a child
/// that is gone, an effect error nobody handled.
package struct RuntimeWarning: Sendable, CustomStringConvertible {
  package let message: String
  package let fileID: String
  package let line: UInt
  /// The file as XCTest wants it.
  package let staticFileID: StaticString

  package var description: String { "\(fileID):\(line): \(message)" }
}

/// A task-local handler of runtime warnings.
///
/// A struct around the closure, never a bare optional closure: Swift 6.3's optimizer miscompiles
/// `TaskLocal.withValue` for an optional function type (a null type-metadata pointer; the
/// optimized program crashes in `swift_task_localValuePush`). `.ci/run` refuses such a
/// task-local anywhere in `Sources`.
package struct RuntimeWarningHandler: Sendable {
  package let report: @Sendable (RuntimeWarning) -> Void

  package init(_ report: @escaping @Sendable (RuntimeWarning) -> Void) { self.report = report }
}

/// Where runtime warnings go: a task-local handler (tests capture with it), else the handler a
/// test framework integration installed, else standard error.
package enum RuntimeWarnings {
  @TaskLocal package static var handler: RuntimeWarningHandler?

  /// Installed by CascadeTesting: records the warning as a failure of the running test;
  /// returns `true` when it knows it did (then nothing is printed).
  package static let fallback = Guarded<(@Sendable (RuntimeWarning) -> Bool)?>(nil)

  /// Runs `operation`, returning the warnings reported while it ran (effects it starts included,
  /// while they run inside it).
  package static func capturing<R>(
    _ operation: () async throws -> R,
    isolation: isolated (any Actor)? = #isolation
  ) async rethrows -> (R, [RuntimeWarning]) {
    let collected = Guarded<[RuntimeWarning]>([])
    let result = try await $handler.withValue(
      RuntimeWarningHandler { warning in collected.withLock { $0.append(warning) } }
    ) {
      try await operation()
    }
    return (result, collected.withLock { $0 })
  }
}

/// The user's code running now, in a test: the line of the test store's `send` whose reducer
/// runs, or the `.run` whose effect runs. A warning the library raises from its own code (a
/// dependency used in a test without a value) is reported there, where the user can act on it.
package struct _UserSite: Sendable {
  package let fileID: StaticString
  package let line: UInt

  package init(fileID: StaticString, line: UInt) {
    self.fileID = fileID
    self.line = line
  }

  @TaskLocal package static var current: _UserSite?
}

/// Reports a runtime warning raised in the library's own code (at `fileID` and `line`) at the
/// user's code running now, when a test says where that is (see ``_UserSite``).
func reportRuntimeWarningAtUserSite(_ message: String, fileID: StaticString, line: UInt) {
  let site = _UserSite.current
  reportRuntimeWarning(message, fileID: site?.fileID ?? fileID, line: site?.line ?? line)
}

/// Reports a runtime warning. `fileID` and `line` name the operator or effect involved.
@usableFromInline
package func reportRuntimeWarning(_ message: String, fileID: StaticString, line: UInt) {
  let warning = RuntimeWarning(
    message: message, fileID: "\(fileID)", line: line, staticFileID: fileID)
  if let handler = RuntimeWarnings.handler {
    handler.report(warning)
    return
  }
  if let fallback = RuntimeWarnings.fallback.withLock({ $0 }), fallback(warning) { return }
  FileHandle.standardError.write(Data("[Cascade] warning: \(warning)\n".utf8))
}
