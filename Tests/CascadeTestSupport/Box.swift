import Cascade

/// A value shared with effects and tasks in a test, read and changed from any of them.
///
/// Behind `Guarded`, a pthread mutex, rather than `LockIsolated`'s `Mutex`: on Linux,
/// ThreadSanitizer cannot see `Mutex` and reports every access it protects as a race.
public final class Box<Value: Sendable>: Sendable {
  private let storage: Guarded<Value>

  public init(_ value: Value) { storage = Guarded(value) }

  /// The current value.
  public var value: Value { storage.withLock { $0 } }

  /// Changes the value under the lock, in one step.
  public func update(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}
