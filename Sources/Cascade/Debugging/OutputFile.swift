import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an output file the way a user expects of a command-line tool: a symbolic link is
/// written through (its target is replaced, the link stays), a file that is not a regular file
/// (a terminal, a pipe, a FIFO, `/dev/stdout`) is written directly and never renamed over, and a
/// regular file is replaced atomically (a temporary file beside it, then a rename), so a reader
/// never sees half of it. What goes wrong is said in words, with the file's path.
package enum OutputFile {
  /// Why an output could not be written: the path as given and the reason, in words.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String { "cannot write \(path): \(reason)" }
  }

  /// Writes `data` to `path` (see ``OutputFile``).
  package static func write(_ data: Data, to path: String) throws(Failure) {
    func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
    var info = stat()
    if stat(path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind == S_IFDIR { throw fail("it is a folder; name a file") }
      if kind != S_IFREG {
        // A terminal, a pipe, a FIFO or a device: written in place, through any link.
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw fail(reason(errno)) }
        defer { close(descriptor) }
        if let problem = writeAll(data, to: descriptor) { throw fail(problem) }
        return
      }
    }
    // A regular file or a new one: replace the file a link leads to, never the link.
    let target = resolvingLinks(path)
    let folder = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    let temporary =
      (folder.isEmpty ? "." : folder)
      + "/.\(name).writing-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw fail(reason(errno, folder: folder)) }
    var problem = writeAll(data, to: descriptor)
    if problem == nil, fsync(descriptor) != 0 { problem = reason(errno) }
    if close(descriptor) != 0, problem == nil { problem = reason(errno) }
    if problem == nil, rename(temporary, target) != 0 { problem = reason(errno, folder: folder) }
    if let problem {
      unlink(temporary)
      throw fail(problem)
    }
  }

  /// `path` with the symbolic links of its last component followed to the file they name
  /// (which may not exist yet); the folders on the way are left as they are.
  package static func resolvingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { return current }
      let destination = String(
        decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        destination.hasPrefix("/")
        ? destination
        : ((current as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(destination)
    }
    return current
  }

  /// Writes all of `data`; what went wrong, if anything.
  private static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
      var offset = 0
      while offset < bytes.count {
        let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return reason(errno)
        }
        offset += count
      }
      return nil
    }
  }

  /// A Foundation file error in words a user reads: the system's reason when it has one,
  /// never a raw `NSCocoaErrorDomain` code.
  package static func reason(of error: any Error, reading: Bool = false) -> String {
    if let failure = error as? Failure { return failure.reason }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return reason(Int32(error.code), reading: reading) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return reason(Int32(underlying.code), reading: reading)
    }
    guard error.domain == NSCocoaErrorDomain else { return error.localizedDescription }
    switch CocoaError.Code(rawValue: error.code) {
    case .fileWriteOutOfSpace: return reason(ENOSPC)
    case .fileNoSuchFile, .fileReadNoSuchFile: return reason(ENOENT)
    case .fileReadNoPermission, .fileWriteNoPermission: return reason(EACCES, reading: reading)
    case .fileWriteVolumeReadOnly: return reason(EROFS)
    case .fileReadTooLarge: return "it is too large to read"
    case .fileReadCorruptFile, .fileReadInapplicableStringEncoding:
      return "it cannot be decoded"
    default: return reading ? "the system could not read it" : "the system could not write it"
    }
  }

  /// `code` (an `errno`) in words a user reads.
  package static func reason(_ code: Int32, folder: String? = nil, reading: Bool = false)
    -> String
  {
    switch code {
    case ENOSPC, EDQUOT: return "the disk is full"
    case EISDIR: return "it is a folder; name a file"
    case ENOENT: return folder.map { "the folder \($0) does not exist" } ?? "it does not exist"
    case ENOTDIR: return "a file stands where a folder of its path should be"
    case EACCES, EPERM:
      if reading { return "no permission to read it" }
      return folder.map { "no permission to write in \($0)" } ?? "no permission to write it"
    case EROFS: return "the file system is read-only"
    case EMFILE, ENFILE: return "too many files are open (raise the limit with ulimit -n)"
    case EPIPE: return "the reader of the pipe has gone"
    case EIO: return "the disk reported an input/output error"
    default: return String(cString: strerror(code))
    }
  }
}
