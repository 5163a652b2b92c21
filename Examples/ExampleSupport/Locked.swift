import Foundation

/// A value behind a lock, shared by reference: what the apps' live clients and their tests'
/// fakes keep their state in, when they are called from many tasks and threads at once.
///
/// Why not `Synchronization.Mutex`: a `Mutex` cannot be copied, so a dependency's escaping
/// closures cannot capture one, and on Linux it is built on futex calls that ThreadSanitizer
/// cannot see (every access it protects is reported as a race). This is an `NSLock`, which
/// ThreadSanitizer understands, around the value. A plain `Mutex` in a `final class` does as
/// well where neither matters.
///
/// ```swift
/// let saved = Locked<[String]>([])
/// let client = ProfileClient(save: { name in saved.withLock { $0.append(name) } })
/// ```
public final class Locked<Value>: @unchecked Sendable {
  // `@unchecked`: `value` is read and written only while `lock` is held.
  private var value: Value
  private let lock = NSLock()

  /// Creates a lock around `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value; never call out to other code from it.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
