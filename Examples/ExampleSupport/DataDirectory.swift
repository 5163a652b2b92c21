import Cascade
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder an example executable keeps its data in, checked before the app starts.
///
/// `--data-dir` must name a folder the program can write in (a missing one is created), and
/// the data files it will write there must not be folders. One copy of a program holds a
/// folder at a time: a second one started on it is refused (an advisory lock, `.PROGRAM.lock`
/// in the folder, released when the holder exits, however it exits, a crash included). Without `--data-dir`, a new
/// temporary folder is used and removed when the process exits (by `quit`, at the end of
/// input, or with an error). Temporary files that a killed writer left behind (`.dat.nosync…`,
/// from Foundation's atomic writes) are removed once they are a minute old.
///
/// ```swift
/// let folder = commandLine.dataDirectoryOrExit(files: ["ranking.json"])
/// ```
public enum DataDirectory {
  /// Why a data folder cannot be used. The message names the path and the reason.
  public enum Problem: Error, Equatable, CustomStringConvertible {
    case notAFolder(String)
    case cannotCreate(String, reason: String)
    case notWritable(String, reason: String)
    case dataFileIsAFolder(String)
    case inUse(String, program: String)
    case wouldOverwrite(option: String, String)

    public var description: String {
      switch self {
      case .notAFolder(let path): "the data folder \(path) is a file, not a folder"
      case .cannotCreate(let path, let reason): "cannot create the data folder \(path): \(reason)"
      case .notWritable(let path, let reason): "cannot write in the data folder \(path): \(reason)"
      case .dataFileIsAFolder(let path):
        "\(path) is a folder where a data file belongs; move it away or choose another --data-dir"
      case .inUse(let path, let program):
        "another \(program) is using the data folder \(path); quit it first, or choose "
          + "another --data-dir (two copies on one folder would overwrite each other's changes)"
      case .wouldOverwrite(let option, let path):
        "\(option) \(path) is one of the data files; name another file"
      }
    }
  }

  /// Checks that `folder` is a folder this process can write in, creating it (and its parents)
  /// when it is missing. Writing is tried for real (a probe file is created and removed), so a
  /// folder the permissions forbid, a read-only file system, or a path under a file are all
  /// refused, while a user the permissions do not bind (root) is not refused for nothing.
  public static func check(_ folder: URL) throws(Problem) {
    let path = folder.path
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard isFolder.boolValue else { throw .notAFolder(path) }
    } else {
      try create(path, for: path)
    }
    let probe = folder.appendingPathComponent(
      ".write-check-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { throw .notWritable(path, reason: lastError()) }
    close(descriptor)
    unlink(probe)
  }

  /// The folder an interactive session keeps its data in: `path` checked (see ``check(_:)``),
  /// or a new temporary folder named after `program`, removed when the process exits. Each of
  /// `files` (names inside the folder) must be a file or missing; stale temporary files of
  /// killed writers are removed.
  public static func prepare(
    _ path: String?, program: String, files: [String] = []
  ) throws(Problem) -> URL {
    let folder: URL
    if let path {
      folder = URL(fileURLWithPath: path, isDirectory: true)
      try check(folder)
      try hold(folder, program: program)
    } else {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "\(program)-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
      try check(folder)
      removeAtExit(folder)
    }
    for file in files {
      var isFolder: ObjCBool = false
      let filePath = folder.appendingPathComponent(file).path
      if FileManager.default.fileExists(atPath: filePath, isDirectory: &isFolder),
        isFolder.boolValue
      {
        throw .dataFileIsAFolder(filePath)
      }
    }
    removeStaleTemporaryFiles(in: folder)
    return folder
  }

  /// Takes the folder's lock for `program`, for as long as this process lives: the descriptor
  /// is never closed, so the kernel releases the lock when the process ends, however it ends.
  static func hold(_ folder: URL, program: String) throws(Problem) {
    let file = folder.appendingPathComponent(".\(program).lock").path
    let key = folder.standardizedFileURL.resolvingSymlinksInPath().path + "/" + program
    guard heldLocks.withLock({ $0[key] == nil }) else { return }  // held by this process
    let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .notWritable(folder.path, reason: lastError()) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let failure = errno
      let reason = lastError()
      close(descriptor)
      if failure == EWOULDBLOCK { throw .inUse(folder.path, program: program) }
      throw .notWritable(folder.path, reason: "cannot lock \(file): \(reason)")
    }
    // The lock file can be deleted while it is held; a second copy would then lock a new one.
    // The folder itself carries a mark for each program that holds it, which no deleted file
    // takes away (Linux: an open-file-description lock on one byte of the folder).
    guard markFolder(folder, program: program) else {
      close(descriptor)
      throw .inUse(folder.path, program: program)
    }
    heldLocks.withLock { $0[key] = descriptor }
  }

  /// Marks `folder` as held by `program` for as long as this process lives; `false` when
  /// another process has marked it for `program`. Where such marks do not exist (not Linux),
  /// the lock file alone keeps a second copy out.
  private static func markFolder(_ folder: URL, program: String) -> Bool {
    #if os(Linux)
      let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard descriptor >= 0 else { return true }
      // One byte per program name, far from any other program's (FNV-1a of the name).
      var hash: UInt32 = 2_166_136_261
      for byte in program.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
      var mark = flock()
      mark.l_whence = Int16(SEEK_SET)
      mark.l_start = off_t(hash)
      mark.l_len = 1
      mark.l_type = Int16(F_WRLCK)
      let openFileGetLock: Int32 = 36  // F_OFD_GETLK
      let openFileSetLock: Int32 = 37  // F_OFD_SETLK
      if fcntl(descriptor, openFileGetLock, &mark) == 0, mark.l_type != Int16(F_UNLCK) {
        close(descriptor)
        return false
      }
      mark = flock()
      mark.l_whence = Int16(SEEK_SET)
      mark.l_start = off_t(hash)
      mark.l_len = 1
      mark.l_type = Int16(F_RDLCK)
      // Kept open for as long as the process lives, like the lock file.
      _ = fcntl(descriptor, openFileSetLock, &mark)
      return true
    #else
      return true
    #endif
  }

  /// The lock descriptors this process holds, by folder and program.
  private static let heldLocks = Locked<[String: Int32]>([:])

  /// Removes the temporary files Foundation's atomic writes leave when the writer is killed
  /// (`.dat.nosync…`) that are older than `age`: a live writer renames its own within moments.
  /// Returns how many were removed.
  @discardableResult
  public static func removeStaleTemporaryFiles(in folder: URL, olderThan age: TimeInterval = 60)
    -> Int
  {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    var removed = 0
    for name in names where name.hasPrefix(".dat.nosync") {
      let file = folder.appendingPathComponent(name)
      guard
        let modified = try? FileManager.default.attributesOfItem(atPath: file.path)[
          .modificationDate] as? Date,
        Date().timeIntervalSince(modified) > age
      else { continue }
      if (try? FileManager.default.removeItem(at: file)) != nil { removed += 1 }
    }
    return removed
  }

  /// Removes `folder` when the process exits, however it exits (`exit(_:)` or the end of the
  /// program).
  public static func removeAtExit(_ folder: URL) {
    _ = installExitHandler
    foldersLock.lock()
    foldersToRemove.append(folder)
    foldersLock.unlock()
  }

  /// Whether the process is leaving at once (a second signal, or a signal in a scenario): a
  /// data client checks it before it saves, so that no save re-creates a temporary folder that
  /// is being removed.
  ///
  /// ```swift
  /// guard !DataDirectory.isLeaving else { return nil }
  /// try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  /// ```
  public static var isLeaving: Bool { leaving.load(ordering: .acquiring) }

  /// Removes the folders given to ``removeAtExit(_:)`` now: for an exit that skips the exit
  /// handlers (a second signal's `_exit`). A file written into one meanwhile is retried once.
  ///
  /// `settling`: saves are stopped first (``isLeaving``), and the folders are removed again
  /// while a save that was already under way could still re-create them (up to 100 ms).
  static func removeTemporaryFoldersNow(settling: Bool = false) {
    if settling { leaving.store(true, ordering: .releasing) }
    foldersLock.lock()
    let folders = foldersToRemove
    foldersLock.unlock()
    for folder in folders {
      if (try? FileManager.default.removeItem(at: folder)) == nil {
        try? FileManager.default.removeItem(at: folder)
      }
    }
    guard settling else { return }
    for _ in 0..<5 {
      Thread.sleep(forTimeInterval: 0.02)
      for folder in folders where FileManager.default.fileExists(atPath: folder.path) {
        try? FileManager.default.removeItem(at: folder)
      }
    }
  }

  private static let leaving = Atomic<Bool>(false)

  // An `NSLock` (public API a user has, and seen by ThreadSanitizer): `foldersToRemove` is
  // read and written only while it is held, hence `nonisolated(unsafe)`.
  private static let foldersLock = NSLock()
  nonisolated(unsafe) private static var foldersToRemove: [URL] = []
  private static let installExitHandler: Void = {
    atexit { DataDirectory.removeTemporaryFoldersNow() }
  }()

  /// The files the example apps keep in a data folder, by name, with what each one is: a
  /// `--record` file is never written over one of them, in any folder (another app sharing the
  /// folder would lose it, or read the recording as its own data).
  public static let filesTheAppsKeep: [String: String] = [
    "ranking.json": "touch-school's ranking",
    "bookmarks.json": "clean-area's bookmarks",
    "settings.json": "taptap's settings",
    "qapple-local.json": "qapple's answers, likes and reports",
    ".touch-school.lock": "touch-school's lock file",
    ".clean-area.lock": "clean-area's lock file",
    ".taptap.lock": "taptap's lock file",
    ".qapple.lock": "qapple's lock file",
  ]

  /// What `name` is when it is a file the example apps keep (see ``filesTheAppsKeep``), or a
  /// copy of one moved aside as unreadable (`ranking.unreadable-2.json`); `nil` otherwise.
  public static func keptFile(named name: String) -> String? {
    if let kept = filesTheAppsKeep[name] { return kept }
    guard let range = name.range(of: ".unreadable-") else { return nil }
    let original = name[..<range.lowerBound] + ".json"
    return filesTheAppsKeep[String(original)].map { "a rescued copy of \($0)" }
  }

  private static func create(_ path: String, for requested: String) throws(Problem) {
    let parent = (path as NSString).deletingLastPathComponent
    var isFolder: ObjCBool = false
    if !parent.isEmpty, parent != path,
      !FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder)
    {
      try create(parent, for: requested)
    } else if !parent.isEmpty, parent != path, !isFolder.boolValue {
      throw .cannotCreate(requested, reason: "\(parent) is a file, not a folder")
    }
    if mkdir(path, 0o755) != 0, errno != EEXIST {
      throw .cannotCreate(requested, reason: lastError())
    }
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}

extension ExampleCommandLine {
  /// The data folder of an interactive session (see ``DataDirectory/prepare(_:program:files:)``)
  /// for `--data-dir`; a folder that cannot be used prints the path and the reason on standard
  /// error and exits 2.
  ///
  /// A second copy of the program on the same folder, and a `--record` file that is one of
  /// `files`, are refused the same way.
  public func dataDirectoryOrExit(files: [String] = []) -> URL {
    do {
      let folder = try DataDirectory.prepare(self["--data-dir"], program: program, files: files)
      if let record = self["--record"] {
        for file in files where isSameFile(record, folder.appendingPathComponent(file).path) {
          throw DataDirectory.Problem.wouldOverwrite(option: "--record", record)
        }
      }
      return folder
    } catch {
      printError("\(program): \(error)")
      exit(2)
    }
  }
}
