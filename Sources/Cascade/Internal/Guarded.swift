import Foundation

/// A value behind a lock: the project's replacement for `Synchronization.Mutex`.
///
/// On Linux, `Mutex` is built on raw futex calls that ThreadSanitizer cannot see, so every
/// access it protects is reported as a race. This lock is a pthread mutex (through `NSLock`),
/// which ThreadSanitizer understands, keeping the sanitizer run in CI meaningful.
///
/// `Sendable` only when `Value` is: `value` is only ever read or written inside `withLock`, but
/// `withLock` can hand a copy of it to any thread, which is safe for a `Sendable` value only.
package final class Guarded<Value> {
  private var value: Value
  private let lock = NSLock()

  package init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// `@unchecked`: the lock serializes every access to `value`, and `Value: Sendable` makes the
/// copies `withLock` returns safe to use on any thread.
extension Guarded: @unchecked Sendable where Value: Sendable {}
