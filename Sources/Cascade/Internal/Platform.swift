// Every use of the operating system in Cascade lives in this file: which thread is running, and
// a value kept per thread. No other file of the library imports an OS module (`.ci/platform-check`
// fails the build if one does).
//
// Each facility has a branch for the platforms Swift supports (Darwin, Glibc, Musl, Android,
// Windows) and a portable fallback for a platform without it (WASI, and any other): a task-local,
// which needs nothing from the OS. `-D CASCADE_PORTABLE` compiles the fallback on any platform,
// so CI builds and tests it on Linux (`.ci/run`); the Performance article says what it costs.

import Synchronization

#if !CASCADE_PORTABLE
  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Android)
    import Android
  #elseif canImport(WinSDK)
    import WinSDK
  #endif
#endif

// MARK: - The send loop's slot

/// A process-wide slot that one thread at a time owns while it runs a send loop, read by any
/// thread: the owner sees the box, every other thread sees nothing.
///
/// With thread identity from the OS, publishing is two atomic stores and a thread-id read per
/// batch, and reading is an atomic load and a compare (see ``_BatchDependencies``). The portable
/// fallback binds the box as a task-local: an allocation per batch outside a task.
@usableFromInline
enum _SendLoopSlot {
  #if !CASCADE_PORTABLE && (canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android) || canImport(WinSDK))
    /// The thread running a send loop, or 0.
    @usableFromInline static let owner = Atomic<UInt>(0)
    /// That loop's box: read and written by the owner only (`nonisolated(unsafe)`: the main
    /// actor's jobs, which are the only writers, are ordered one after another).
    @usableFromInline nonisolated(unsafe) static var box: Unmanaged<_DependencyBox>?

    /// An identity of the calling thread, never 0.
    @inlinable static var thread: UInt {
      #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
      #elseif canImport(Glibc)
        UInt(pthread_self())
      #elseif canImport(Musl)
        UInt(bitPattern: Int(bitPattern: pthread_self()))
      #elseif canImport(Android)
        UInt(bitPattern: Int(pthread_self()))
      #else
        UInt(GetCurrentThreadId())
      #endif
    }

    @inlinable static var current: _DependencyBox? {
      guard owner.load(ordering: .relaxed) == thread else { return nil }
      return box?.takeUnretainedValue()
    }

    @inlinable
    static func with<Result>(
      unretained box: Unmanaged<_DependencyBox>, _ body: () throws -> Result
    ) rethrows -> Result {
      let thread = thread
      let previousOwner = owner.load(ordering: .relaxed)
      let previousBox = self.box
      self.box = box
      owner.store(thread, ordering: .relaxed)
      defer {
        self.box = previousBox
        owner.store(previousOwner, ordering: .relaxed)
      }
      return try body()
    }
  #else
    /// The box of the send loop running in this task (or on this thread, outside a task).
    @usableFromInline static let bound = _ThreadLocal<_DependencyBox>()

    @inlinable static var current: _DependencyBox? { bound.current }

    @inlinable
    static func with<Result>(
      unretained box: Unmanaged<_DependencyBox>, _ body: () throws -> Result
    ) rethrows -> Result {
      try bound.with(box.takeUnretainedValue(), body)
    }
  #endif
}

// MARK: - A value per thread

/// A reference kept per thread for the duration of a call: set by ``with(_:_:)``, read by
/// ``current`` on the same thread, invisible to every other thread.
///
/// A thread key of the OS (a pthread key, or a Windows TLS index) where there is one; in the
/// portable fallback a task-local whose binding answers only the task (or, outside a task, the
/// thread) that made it.
///
/// `@unchecked Sendable`: the key (or task-local) is created once and never changes; the values
/// are only ever read on the thread (or task) that set them.
@usableFromInline
final class _ThreadLocal<Value: AnyObject>: @unchecked Sendable {
  #if !CASCADE_PORTABLE && (canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android))
    private let key: pthread_key_t

    init() {
      var key = pthread_key_t()
      precondition(pthread_key_create(&key, nil) == 0, "Cascade: no thread key left")
      self.key = key
    }

    @inline(__always)
    var current: Value? {
      guard let pointer = pthread_getspecific(key) else { return nil }
      return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    func with<R>(_ value: Value, _ body: () throws -> R) rethrows -> R {
      let previous = pthread_getspecific(key)
      pthread_setspecific(key, Unmanaged.passUnretained(value).toOpaque())
      defer { pthread_setspecific(key, previous) }
      return try withExtendedLifetime(value) { try body() }
    }
  #elseif !CASCADE_PORTABLE && canImport(WinSDK)
    private let index: DWORD

    init() {
      let index = TlsAlloc()
      precondition(index != TLS_OUT_OF_INDEXES, "Cascade: no thread-local index left")
      self.index = index
    }

    @inline(__always)
    var current: Value? {
      guard let pointer = TlsGetValue(index) else { return nil }
      return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    func with<R>(_ value: Value, _ body: () throws -> R) rethrows -> R {
      let previous = TlsGetValue(index)
      TlsSetValue(index, Unmanaged.passUnretained(value).toOpaque())
      defer { TlsSetValue(index, previous) }
      return try withExtendedLifetime(value) { try body() }
    }
  #else
    /// One call's binding. A task started inside the call inherits the task-local, so a
    /// binding answers only the task that made it (`nil` outside a task), and only until the
    /// call returns: the inheriting task sees no value, as another thread would.
    ///
    /// `@unchecked Sendable`: `value` and `task` never change; `task` is only compared, never
    /// used, and while the binding is active its task is running the call.
    private final class Binding: @unchecked Sendable {
      let value: Value
      let task: UnsafeCurrentTask?
      let isActive = Atomic<Bool>(true)
      init(_ value: Value, task: UnsafeCurrentTask?) {
        self.value = value
        self.task = task
      }
    }
    private let local = TaskLocal<Binding?>(wrappedValue: nil)

    @usableFromInline init() {}

    @usableFromInline var current: Value? {
      guard let binding = local.get(), binding.isActive.load(ordering: .acquiring) else {
        return nil
      }
      return withUnsafeCurrentTask { $0 == binding.task } ? binding.value : nil
    }

    @usableFromInline
    func with<R>(_ value: Value, _ body: () throws -> R) rethrows -> R {
      let binding = withUnsafeCurrentTask { Binding(value, task: $0) }
      defer { binding.isActive.store(false, ordering: .releasing) }
      return try local.withValue(binding, operation: body)
    }
  #endif
}
