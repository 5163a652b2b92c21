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
      file = try Self.check(path)
      // The recording is written at the end, over whatever the path holds: never an input.
      for (option, input) in commandLine.values.sorted(by: { $0.key < $1.key })
      where option != Self.option && isSameFile(path, input) {
        throw ExampleCommandLine.ParseError.badPath(
          Self.option, path, "it is the file given to \(option); name another file")
      }
    } catch {
      commandLine.exitWithUsageError(error)
    }
    recorder = Recorder(inspectable: true)
  }

  /// Checks that a recording can be written at `path`: not a folder, in a folder that exists
  /// and that this process can write in (tried for real, so root is not refused for nothing).
  public static func check(_ path: String) throws(ExampleCommandLine.ParseError) -> URL {
    let url = URL(fileURLWithPath: path)
    func refuse(_ reason: String) -> ExampleCommandLine.ParseError {
      .badPath(option, path, reason)
    }
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
      isFolder.boolValue
    {
      throw refuse("it is a folder; name a file in it")
    }
    let folder = url.deletingLastPathComponent()
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

  /// Writes the recording, when there is one, and says where; returns what went wrong, for a
  /// scenario's list of failed expectations (empty when all went well).
  public func save() -> [String] {
    guard let file, let recorder else { return [] }
    // Writing thousands of actions takes a moment: say what is happening meanwhile.
    let count = recorder.actionCount
    if count >= 1_000 { printError("\(program): writing the recording of \(count) actions...") }
    let recording = recorder.recording
    do {
      try recording.write(to: file)
    } catch {
      printError("\(program): could not write the recording to \(file.path): \(error)")
      return ["the recording is written to \(file.path)"]
    }
    let steps = recording.session?.steps.count ?? 0
    print(
      "\(program): recorded \(steps) actions in \(file.path); "
        + "open them with: swift run cascade-inspect \(file.path)")
    return []
  }

  /// Writes the recording, when there is one, then exits with `status` (1 when writing
  /// failed).
  public func saveAndExit(_ status: Int32) -> Never {
    exit(save().isEmpty ? status : 1)
  }
}
