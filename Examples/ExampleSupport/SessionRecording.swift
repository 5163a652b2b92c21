import Cascade
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--record FILE`, the same in every example executable: the session's actions and states
/// are recorded and written to `FILE` when the program ends, for `cascade-inspect` to show.
///
/// The path is checked before anything runs: a folder, a file in a folder that does not exist
/// or cannot be written in, and a file another option reads (or, through
/// ``ExampleCommandLine/dataDirectoryOrExit(files:)``, a data file) are refused with the
/// reason, and the program exits 2. Without
/// `--record`, ``recorder`` is `nil` and nothing is recorded.
///
/// ```swift
/// let recording = SessionRecording<MainFeature.State, MainFeature.Action>(commandLine)
/// let store = Store(initialState: MainFeature.State()) {
///   MainFeature().record(into: recording.recorder)
/// }
/// // ... at the end:
/// recording.saveAndExit(0)
/// ```
@MainActor
public final class SessionRecording<State, Action> {
  /// The option's name.
  public static var option: String { "--record" }

  /// Where the recording goes, `nil` without `--record`.
  public let file: URL?
  /// What the program's store records into, `nil` without `--record`.
  public let recorder: Recorder<State, Action>?
  private let program: String

  /// Reads `--record` from `commandLine`; a path that cannot be written prints why, with the
  /// usage, and exits 2.
  public init(_ commandLine: ExampleCommandLine) {
    program = commandLine.program
    guard let path = commandLine[Self.option] else {
      file = nil
      recorder = nil
      return
    }
    do throws(ExampleCommandLine.ParseError) {
      // The recording is written at the end, over whatever the path holds: never an input.
      for (option, input) in commandLine.values.sorted(by: { $0.key < $1.key })
      where option != Self.option && isSameFile(path, input) {
        throw ExampleCommandLine.ParseError.badPath(
          Self.option, path, "it is the file given to \(option); name another file")
      }
      file = try Self.check(path, force: commandLine.has("--force"))
    } catch {
      commandLine.exitWithUsageError(error)
    }
    recorder = Recorder(inspectable: true)
  }

  /// Checks that a recording can be written at `path`: not a folder, in a folder that exists
  /// and that this process can write in (tried for real, so root is not refused for nothing).
  ///
  /// A file the example apps keep (a data file, a lock file, a rescued copy: see
  /// ``DataDirectory/filesTheAppsKeep``), by its name or the name a symbolic link leads to, is
  /// refused; so is an existing file that is not a recording, unless `force` (`--force`). A
  /// recording is replaced, and a file that is not a regular file (a pipe, a terminal) is
  /// written to.
  public static func check(_ path: String, force: Bool = false) throws(ExampleCommandLine
    .ParseError) -> URL
  {
    let url = URL(fileURLWithPath: path)
    func refuse(_ reason: String) -> ExampleCommandLine.ParseError {
      .badPath(option, path, reason)
    }
    let target = linkTarget(path)
    for name in [url.lastPathComponent, URL(fileURLWithPath: target).lastPathComponent] {
      if let kept = DataDirectory.keptFile(named: name) {
        throw .keptFile(option, path, "\(name): \(kept)")
      }
    }
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0, !force {
      do throws(RecordingFileError) {
        _ = try RecordedSession(contentsOf: URL(fileURLWithPath: target))
      } catch {
        if case .unreadable(_, let reason) = error {
          throw refuse("it cannot be read to check what it holds (\(reason))")
        }
        throw refuse(
          "it holds something that is not a recording; add --force to replace it, "
            + "or name another file")
      }
    }
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
      isFolder.boolValue
    {
      throw refuse("it is a folder; name a file in it")
    }
    // A terminal, a pipe or a device is written in place: nothing is created beside it.
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return url }
    let folder = URL(fileURLWithPath: target).deletingLastPathComponent()
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
      throw refuse("the folder \(folder.path) does not exist")
    }
    guard isFolder.boolValue else { throw refuse("\(folder.path) is a file, not a folder") }
    let probe = folder.appendingPathComponent(
      ".record-check-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else {
      throw refuse("cannot write in \(folder.path): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
    unlink(probe)
    return url
  }

  /// What is lost when the program exits without saving: the recording, when there is one.
  public var unsaved: [String] { file.map { ["the recording to \($0.path)"] } ?? [] }

  /// Writes the recording, when there is one, and says where; returns what went wrong, for a
  /// scenario's list of failed expectations (empty when all went well).
  public func save() -> [String] {
    guard let file, let recorder else { return [] }
    // Writing thousands of actions takes a moment: say what is happening meanwhile.
    let count = recorder.actionCount
    if count >= 1_000 { printError("\(program): writing the recording of \(count) actions...") }
    let recording = recorder.recording
    let steps = recording.session?.steps.count ?? 0
    do {
      try recording.write(to: file)
    } catch {
      printError("\(program): \(error); the recording of \(steps) actions was not saved")
      return ["the recording is written to \(file.path)"]
    }
    print(
      "\(program): recorded \(steps) actions in \(file.path); "
        + "open them with: cascade-inspect \(shellQuoted(file.path))")
    return []
  }

  /// Writes the recording, when there is one, then exits with `status`, or 1 when writing it
  /// failed or when the last save of a data file failed (see ``SaveFailures``): then what was
  /// not saved, and why, is said on standard error.
  public func saveAndExit(_ status: Int32) -> Never {
    var status = save().isEmpty ? status : 1
    let unsaved = SaveFailures.current
    if !unsaved.isEmpty {
      printError(
        "\(program): the last save failed, so this was not saved: "
          + unsaved.joined(separator: "; "))
      if status == 0 { status = 1 }
    }
    exit(status)
  }
}

/// `path` as a shell reads it back unchanged: as it is when it holds only letters, digits and
/// `/._-+,:@%=`; otherwise in single quotes (a quote inside written `'\''`).
///
/// ```swift
/// shellQuoted("my sessions/it's.json")  // 'my sessions/it'\''s.json'
/// ```
public func shellQuoted(_ path: String) -> String {
  let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=")
  if !path.isEmpty, path.allSatisfy(plain.contains) { return path }
  return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// `path` with the symbolic links of its last component followed to the file they name (which
/// may not exist yet).
func linkTarget(_ path: String) -> String {
  var current = path
  for _ in 0..<40 {
    guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
    else { return current }
    current =
      destination.hasPrefix("/")
      ? destination
      : ((current as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent(destination)
  }
  return current
}
