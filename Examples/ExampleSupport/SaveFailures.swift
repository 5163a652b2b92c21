import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The data files whose last save failed, so that a session that ends with one says what was
/// not saved and why, and exits non-zero (``SessionRecording/saveAndExit(_:)``).
///
/// Every app's data client notes each save's outcome; a later successful save of the same file
/// clears its failure.
///
/// ```swift
/// do {
///   try data.write(to: file, options: .atomic)
///   SaveFailures.note(file, what: "the ranking", failure: nil)
/// } catch {
///   SaveFailures.note(file, what: "the ranking", failure: fileError(error, writing: file))
/// }
/// ```
public enum SaveFailures {
  // An `NSLock`, not `Mutex`: ThreadSanitizer does not see `Mutex`'s futex on Linux, and the
  // apps' clients note saves from many threads under the tests' ThreadSanitizer pass.
  private static let lock = NSLock()
  // `nonisolated(unsafe)`: read and written only while `lock` is held.
  nonisolated(unsafe) private static var failures: [String: String] = [:]

  /// Notes how the last save of `file` (holding `what`) went: `failure` is the reason in words,
  /// `nil` when it was saved.
  public static func note(_ file: URL, what: String, failure: String?) {
    let entry = failure.map { "\(what) in \(file.path) (\($0))" }
    lock.lock()
    failures[file.path] = entry
    lock.unlock()
  }

  /// What was not saved, one entry per file whose last save failed, with the reason.
  public static var current: [String] {
    lock.lock()
    let failures = failures
    lock.unlock()
    return failures.sorted { $0.key < $1.key }.map(\.value)
  }
}

/// Why writing `file` failed, in words a user reads, never a raw `NSCocoaErrorDomain` code: the
/// disk is full, a folder is where the file should be, no permission, a read-only file system.
///
/// ```swift
/// do { try data.write(to: file, options: .atomic) } catch {
///   print("could not save \(file.path): \(fileError(error, writing: file))")
/// }
/// ```
public func fileError(_ error: any Error, writing file: URL) -> String {
  var isFolder: ObjCBool = false
  if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue {
    return "a folder is where the file should be"
  }
  let error = error as NSError
  var code: Int32?
  if error.domain == NSPOSIXErrorDomain { code = Int32(error.code) }
  if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
    underlying.domain == NSPOSIXErrorDomain
  {
    code = Int32(underlying.code)
  }
  if code == nil, error.domain == NSCocoaErrorDomain {
    switch CocoaError.Code(rawValue: error.code) {
    case .fileWriteOutOfSpace: code = ENOSPC
    case .fileWriteNoPermission: code = EACCES
    case .fileWriteVolumeReadOnly: code = EROFS
    case .fileNoSuchFile, .fileWriteInvalidFileName: code = ENOENT
    default: break
    }
  }
  switch code {
  case ENOSPC?, EDQUOT?: return "the disk is full"
  case EACCES?, EPERM?: return "no permission to write it"
  case EROFS?: return "the file system is read-only"
  case ENOENT?: return "its folder no longer exists"
  case ENOTDIR?: return "a file stands where a folder of its path should be"
  case EISDIR?: return "a folder is where the file should be"
  case EMFILE?, ENFILE?: return "too many files are open (raise the limit with ulimit -n)"
  case let code?: return String(cString: strerror(code))
  case nil:
    return error.domain == NSCocoaErrorDomain
      ? "the system could not write it" : error.localizedDescription
  }
}
