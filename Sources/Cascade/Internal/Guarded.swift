import Foundation

/// A value behind a lock: the project's replacement for `Synchronization.Mutex`.
///
/// On Linux, `Mutex` is built on raw futex calls that ThreadSanitizer cannot see, so every
/// access it protects is reported as a race. This lock is a pthread mutex (through `NSLock`),
/// which ThreadSanitizer understands, keeping the sanitizer run in CI meaningful.
///
/// `@unchecked Sendable`: `value` is only ever read or written inside `withLock`.
package final class Guarded<Value>: @unchecked Sendable {
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
