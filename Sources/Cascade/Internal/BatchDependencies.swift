#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Dependencies boxed for the thread-local slot below; a store allocates its box once.
@usableFromInline
final class _DependencyBox: Sendable {
  @usableFromInline let values: DependencyValues
  @usableFromInline init(_ values: DependencyValues) { self.values = values }
}

/// The dependencies of the send loop running on this thread.
///
/// A store runs every batch inside the dependencies it pinned. Binding a task-local for each
/// batch costs an allocation (outside a task, Swift keeps task-locals in a heap-allocated
/// fallback), so the loop publishes its values in a thread-local slot instead: two pointer
/// writes per batch. `DependencyValues.current` reads this slot first. Overrides made while a
/// batch runs (`withDependencies`, `.dependency`) stack on the slot too, so they keep their
/// precedence; effects capture the values when created and bind them as a task-local in their
/// own task, where no batch runs.
@usableFromInline
enum _BatchDependencies {
  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  @inlinable static var current: _DependencyBox? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<_DependencyBox>.fromOpaque(pointer).takeUnretainedValue()
  }

  @inlinable
  static func with<Result>(_ box: _DependencyBox, _ body: () throws -> Result) rethrows -> Result {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(box).toOpaque())
    defer { pthread_setspecific(key, previous) }
    return try withExtendedLifetime(box) { try body() }
  }
}
