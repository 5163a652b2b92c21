import Foundation

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
    switch _Files.kind(path) {
    case .folder: throw fail("it is a folder; name a file")
    case .other:
      // A terminal, a pipe, a FIFO or a device: written in place, through any link.
      if let code = _Files.writeInPlace(data, to: path) { throw fail(reason(code)) }
      return
    case .regular, .missing: break
    }
    // A regular file or a new one: replace the file a link leads to, never the link.
    let target = resolvingLinks(path)
    let folder = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    let temporary =
      (folder.isEmpty ? "." : folder)
      + "/.\(name).writing-\(_Files.processID)-\(UInt32.random(in: 0...UInt32.max))"
    if let code = _Files.createSynced(temporary, with: data) {
      _Files.remove(temporary)
      throw fail(reason(code, folder: folder))
    }
    if let code = _Files.replace(target, with: temporary) {
      _Files.remove(temporary)
      throw fail(reason(code, folder: folder))
    }
  }

  /// `path` with the symbolic links of its last component followed to the file they name
  /// (which may not exist yet); the folders on the way are left as they are.
  package static func resolvingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      guard let destination = _Files.linkDestination(current) else { return current }
      current =
        destination.hasPrefix("/")
        ? destination
        : ((current as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(destination)
    }
    return current
  }

  /// The `errno`-style code of a Foundation file error, when it has one.
  package static func code(of error: any Error) -> Int32? {
    if let failure = error as? _FileErrorCode { return failure.code }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return Int32(underlying.code)
    }
    guard error.domain == NSCocoaErrorDomain else { return nil }
    switch CocoaError.Code(rawValue: error.code) {
    case .fileWriteOutOfSpace: return POSIXErrorCode.ENOSPC.rawValue
    case .fileNoSuchFile, .fileReadNoSuchFile: return POSIXErrorCode.ENOENT.rawValue
    case .fileReadNoPermission, .fileWriteNoPermission: return POSIXErrorCode.EACCES.rawValue
    case .fileWriteVolumeReadOnly: return POSIXErrorCode.EROFS.rawValue
    case .fileWriteFileExists: return POSIXErrorCode.EEXIST.rawValue
    default: return nil
    }
  }

  /// A Foundation file error in words a user reads: the system's reason when it has one,
  /// never a raw `NSCocoaErrorDomain` code.
  package static func reason(of error: any Error, reading: Bool = false) -> String {
    if let failure = error as? Failure { return failure.reason }
    if let code = code(of: error) { return reason(code, reading: reading) }
    let error = error as NSError
    guard error.domain == NSCocoaErrorDomain else { return error.localizedDescription }
    switch CocoaError.Code(rawValue: error.code) {
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
    switch POSIXErrorCode(rawValue: code) {
    case .ENOSPC?, .EDQUOT?: return "the disk is full"
    case .EISDIR?: return "it is a folder; name a file"
    case .ENOENT?: return folder.map { "the folder \($0) does not exist" } ?? "it does not exist"
    case .ENOTDIR?: return "a file stands where a folder of its path should be"
    case .EACCES?, .EPERM?:
      if reading { return "no permission to read it" }
      return folder.map { "no permission to write in \($0)" } ?? "no permission to write it"
    case .EROFS?: return "the file system is read-only"
    case .EMFILE?, .ENFILE?: return "too many files are open (raise the limit with ulimit -n)"
    case .EPIPE?: return "the reader of the pipe has gone"
    case .EIO?: return "the disk reported an input/output error"
    case .EEXIST?: return "a file of that name appeared while it was being written"
    default: return _Files.describe(code)
    }
  }
}
