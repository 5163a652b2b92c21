#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something that wants to hear, from any thread, that a shared value changed.
protocol _SharedListener: AnyObject, Sendable {
  func sharedValueDidChange()
}

/// Collects the shared roots read on this thread while it records: how a store's async
/// observation learns which shared values its derived value depends on.
///
/// A thread-local slot (a pthread key) rather than a task-local: every shared read checks it,
/// and a thread-local is the cheaper lookup.
final class _SharedReadRecorder {
  private(set) var roots: [any _ListenableRoot] = []

  static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  @inline(__always)
  static func recordRead(_ root: any _ListenableRoot) {
    guard let pointer = pthread_getspecific(key) else { return }
    Unmanaged<_SharedReadRecorder>.fromOpaque(pointer).takeUnretainedValue().roots.append(root)
  }

  /// Runs `body`, recording the shared roots it reads on this thread.
  func recording<R>(_ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(Self.key)
    pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(Self.key, previous) }
    return try withExtendedLifetime(self) { try body() }
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
