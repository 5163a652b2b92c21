/// Something that wants to hear, from any thread, that a shared value changed.
protocol _SharedListener: AnyObject, Sendable {
  func sharedValueDidChange()
}

/// Collects the shared roots read on this thread while it records: how a store's async
/// observation learns which shared values its derived value depends on.
///
/// A thread-local slot (``_ThreadLocal``: a thread key of the OS) rather than a task-local:
/// every shared read checks it, and a thread-local is the cheaper lookup. In the portable
/// fallback the slot is a task-local.
final class _SharedReadRecorder {
  private(set) var roots: [any _ListenableRoot] = []

  private static let slot = _ThreadLocal<_SharedReadRecorder>()

  @inline(__always)
  static func recordRead(_ root: any _ListenableRoot) {
    slot.current?.roots.append(root)
  }

  /// Runs `body`, recording the shared roots it reads on this thread.
  func recording<R>(_ body: () throws -> R) rethrows -> R {
    try Self.slot.with(self, body)
  }

  /// Runs `body`, and makes `listener` hear of later changes to every shared value it read.
  static func read<R>(listeningWith listener: any _SharedListener, _ body: () -> R) -> R {
    let recorder = _SharedReadRecorder()
    let value = recorder.recording(body)
    for root in recorder.roots { root.addListener(listener) }
    return value
  }
}

/// A root a listener can subscribe to.
protocol _ListenableRoot: AnyObject {
  func addListener(_ listener: any _SharedListener)
}
