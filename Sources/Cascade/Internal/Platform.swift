// Every use of the operating system in Cascade lives in this file: which thread is running, a
// value kept per thread, and the file operations of recordings and pages (links, pipes, atomic
// replacement). No other file of the library imports an OS module (`.ci/platform-check`
// fails the build if one does).
//
// Each facility has a branch for the platforms Swift supports (Darwin, Glibc, Musl, Android,
// Windows) and a portable fallback for a platform without it (WASI, and any other): a task-local,
// which needs nothing from the OS. `-D CASCADE_PORTABLE` compiles the fallback on any platform,
// so CI builds and tests it on Linux (`.ci/run`); the Performance article says what it costs.

import Foundation
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

    /// ``current``, not retained: valid while the loop that published it runs.
    @inlinable static var currentUnretained: Unmanaged<_DependencyBox>? {
      guard owner.load(ordering: .relaxed) == thread else { return nil }
      return box
    }

    /// Publishes `box` in place of the current one for `body`, on the thread that owns the
    /// slot (the caller has just read ``currentUnretained``): the owner stays as it is.
    @inlinable @inline(__always)
    static func replacing<Result>(
      unretained box: Unmanaged<_DependencyBox>, _ body: () throws -> Result
    ) rethrows -> Result {
      let previousBox = self.box
      self.box = box
      defer { self.box = previousBox }
      return try body()
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

    /// ``current``, not retained: valid while the loop that published it runs.
    @inlinable static var currentUnretained: Unmanaged<_DependencyBox>? {
      bound.current.map { Unmanaged.passUnretained($0) }
    }

    /// Publishes `box` in place of the current one for `body`.
    @inlinable
    static func replacing<Result>(
      unretained box: Unmanaged<_DependencyBox>, _ body: () throws -> Result
    ) rethrows -> Result {
      try with(unretained: box, body)
    }

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

// MARK: - Files

/// What a path names, with symbolic links followed.
package enum _FileKind: Equatable {
  /// Nothing is there (or the path cannot be looked at).
  case missing
  /// A regular file.
  case regular
  /// A folder.
  case folder
  /// Something else: a terminal, a pipe, a FIFO, a device.
  case other
}

/// The file operations that recordings and the inspector's pages need (``OutputFile``): each
/// fails with an `errno`-style code, turned into words by ``OutputFile/reason(_:folder:reading:)``.
///
/// With a POSIX C library, these are the system calls themselves, so a new file is created
/// exclusively, flushed to the disk and renamed over its target atomically. The portable
/// fallback (Windows, WASI, `-D CASCADE_PORTABLE`) does the same through Foundation's file
/// API, whose errors are mapped to the same codes.
package enum _Files {
  #if !CASCADE_PORTABLE && (canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android))
    /// What `path` names, links followed.
    package static func kind(_ path: String) -> _FileKind {
      var info = stat()
      guard stat(path, &info) == 0 else { return .missing }
      switch info.st_mode & S_IFMT {
      case S_IFREG: return .regular
      case S_IFDIR: return .folder
      default: return .other
      }
    }

    /// Where the symbolic link `path` leads, as written in the link; `nil` when `path` is not
    /// a symbolic link.
    package static func linkDestination(_ path: String) -> String? {
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(path, &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes `data` into the existing file `path` (a terminal, a pipe): an error code, or `nil`.
    package static func writeInPlace(_ data: Data, to path: String) -> Int32? {
      let descriptor = open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return errno }
      defer { close(descriptor) }
      return writeAll(data, to: descriptor)
    }

    /// Creates `path`, which must not exist, with `data`, flushed to the disk: an error code,
    /// or `nil`. A failed write leaves the new file for the caller to remove.
    package static func createSynced(_ path: String, with data: Data) -> Int32? {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { return errno }
      var problem = writeAll(data, to: descriptor)
      if problem == nil, fsync(descriptor) != 0 { problem = errno }
      if close(descriptor) != 0, problem == nil { problem = errno }
      return problem
    }

    /// Puts `source` in the place of `target` in one step: an error code, or `nil`.
    package static func replace(_ target: String, with source: String) -> Int32? {
      rename(source, target) == 0 ? nil : errno
    }

    /// Removes the file `path`, if it can.
    package static func remove(_ path: String) { unlink(path) }

    /// Reads `path` (a pipe, a FIFO) to its end: its bytes, or an error code.
    package static func readAll(_ path: String) -> Result<Data, _FileErrorCode> {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return .failure(_FileErrorCode(errno)) }
      defer { close(descriptor) }
      var data = Data()
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { return .failure(_FileErrorCode(errno)) }
        if count == 0 { return .success(data) }
        data.append(contentsOf: buffer[..<count])
      }
    }

    /// This process's id, for names of temporary files.
    package static var processID: Int32 { getpid() }

    /// The C library's description of `code`.
    package static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
      data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32? in
        var offset = 0
        while offset < bytes.count {
          let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
          if count < 0 {
            if errno == EINTR { continue }
            return errno
          }
          offset += count
        }
        return nil
      }
    }
  #else
    package static func kind(_ path: String) -> _FileKind {
      let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      guard let type = try? FileManager.default.attributesOfItem(atPath: resolved)[.type]
      else { return .missing }
      switch type as? FileAttributeType {
      case .typeRegular?: return .regular
      case .typeDirectory?: return .folder
      default: return .other
      }
    }

    package static func linkDestination(_ path: String) -> String? {
      guard
        let type = try? FileManager.default.attributesOfItem(atPath: path)[.type],
        type as? FileAttributeType == .typeSymbolicLink
      else { return nil }
      return try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    package static func writeInPlace(_ data: Data, to path: String) -> Int32? {
      guard let handle = FileHandle(forWritingAtPath: path) else {
        return POSIXErrorCode.EACCES.rawValue
      }
      defer { try? handle.close() }
      do { try handle.write(contentsOf: data) } catch { return code(of: error) }
      return nil
    }

    package static func createSynced(_ path: String, with data: Data) -> Int32? {
      let url = URL(fileURLWithPath: path)
      do {
        try data.write(to: url, options: .withoutOverwriting)
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.synchronize()
      } catch { return code(of: error) }
      return nil
    }

    package static func replace(_ target: String, with source: String) -> Int32? {
      let manager = FileManager.default
      do {
        if manager.fileExists(atPath: target) {
          _ = try manager.replaceItemAt(
            URL(fileURLWithPath: target), withItemAt: URL(fileURLWithPath: source))
        } else {
          try manager.moveItem(atPath: source, toPath: target)
        }
      } catch { return code(of: error) }
      return nil
    }

    package static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    package static func readAll(_ path: String) -> Result<Data, _FileErrorCode> {
      guard let handle = FileHandle(forReadingAtPath: path) else {
        return .failure(_FileErrorCode(POSIXErrorCode.EACCES.rawValue))
      }
      defer { try? handle.close() }
      do { return .success(try handle.readToEnd() ?? Data()) } catch {
        return .failure(_FileErrorCode(code(of: error)))
      }
    }

    package static var processID: Int32 { ProcessInfo.processInfo.processIdentifier }

    package static func describe(_ code: Int32) -> String { "system error \(code)" }

    /// A Foundation file error as an `errno`-style code.
    private static func code(of error: any Error) -> Int32 {
      OutputFile.code(of: error) ?? POSIXErrorCode.EIO.rawValue
    }
  #endif
}

/// An `errno`-style code as an error, for ``_Files/readAll(_:)``.
package struct _FileErrorCode: Error {
  package let code: Int32
  package init(_ code: Int32) { self.code = code }
}
