import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The executables used as a hostile user, a script, a container running as root or a CI job
/// uses them: outputs that are symbolic links, FIFOs and full disks, a closed standard input, a
/// signal behind hundreds of queued commands, one app's files in reach of another's
/// `--record`, arguments full of escape sequences, scenarios interrupted half-way.
///
/// Every file is in a scratch folder under a temporary directory; nothing here writes to a
/// system path (the full disk is a 64 KB tmpfs mounted on a scratch folder, as root only).
/// Like the rest of the end-to-end suite they need `swift build` and `CASCADE_E2E=1`.
@Suite(
  .serialized, .enabled(if: ProcessInfo.processInfo.environment["CASCADE_E2E"] == "1"),
  .timeLimit(.minutes(10)))
struct HostileUseEndToEndTests {
  let sandbox = Sandbox()

  func start(_ app: String, _ arguments: [String]) throws -> LiveProcess {
    let executable = Executable(name: app)
    try #require(executable.isBuilt, "\(executable.url.path) is not built: run `swift build`")
    return try LiveProcess(executable, arguments, in: sandbox.base, temporaryDirectory: sandbox.tmp)
  }

  /// Runs `app` through `sh -c script`, where the script names the app `"$0"` and its arguments
  /// `"$@"`.
  func runThroughShell(
    _ script: String, _ app: String, _ arguments: [String], input: String = "",
    timeout: TimeInterval = 30
  ) throws -> Executable.Run {
    let executable = Executable(name: app)
    try #require(executable.isBuilt, "\(executable.url.path) is not built: run `swift build`")
    return try Executable(url: URL(fileURLWithPath: "/bin/sh")).run(
      ["-c", script, executable.url.path] + arguments, input: input, in: sandbox.base,
      temporaryDirectory: sandbox.tmp, timeout: timeout)
  }

  func touches(in file: URL) throws -> [String: Int] {
    struct Saved: Decodable { let touches: [String: Int] }
    return try JSONDecoder().decode(Saved.self, from: Data(contentsOf: file)).touches
  }

  func isSymbolicLink(_ url: URL) -> Bool {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
  }

  func isFIFO(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
  }

  // MARK: - 1. Outputs through links and non-regular files

  @Test func aRecordingIsWrittenThroughASymbolicLinkNotOverIt() throws {
    defer { sandbox.remove() }
    let target = sandbox.base.appendingPathComponent("target.json")
    let link = sandbox.base.appendingPathComponent("link.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    // Twice: through a link to nothing yet, then through a link to the first recording.
    for _ in 1...2 {
      let run = try sandbox.run("counter", ["--record", link.path])
      #expect(run.status == 0, "\(run)")
      #expect(isSymbolicLink(link), "the link was replaced by a file")
      let recording = try JSONSerialization.jsonObject(with: Data(contentsOf: target))
      #expect((recording as? [String: Any])?["session"] != nil)
    }
  }

  @Test func thePageIsWrittenThroughASymbolicLinkNotOverIt() throws {
    defer { sandbox.remove() }
    let recording = sandbox.base.appendingPathComponent("session.json")
    try #require(try sandbox.run("counter", ["--record", recording.path]).status == 0)
    let target = sandbox.base.appendingPathComponent("page-target.html")
    let link = sandbox.base.appendingPathComponent("page.html")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let run = try sandbox.run("cascade-inspect", [recording.path, "-o", link.path])
    #expect(run.status == 0, "\(run)")
    #expect(isSymbolicLink(link), "the link was replaced by a file")
    #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("<!doctype html>"))
  }

  /// `-o /dev/stdout` and `--record /dev/stdout`, made safe: a link (like `/dev/stdout`) to a
  /// FIFO (like a pipe) in the scratch folder. The output is written into the FIFO, which is
  /// neither replaced nor renamed over, and neither is the link.
  @Test func anOutputThatIsAPipeIsWrittenDirectly() throws {
    defer { sandbox.remove() }
    let recording = sandbox.base.appendingPathComponent("session.json")
    try #require(try sandbox.run("counter", ["--record", recording.path]).status == 0)
    let fifo = sandbox.base.appendingPathComponent("pipe")
    let stdout = sandbox.base.appendingPathComponent("stdout")
    try #require(mkfifo(fifo.path, 0o644) == 0)
    try FileManager.default.createSymbolicLink(at: stdout, withDestinationURL: fifo)

    let page = FIFOReader(fifo)
    let inspect = try sandbox.run("cascade-inspect", [recording.path, "-o", stdout.path])
    let html = String(decoding: page.result() ?? Data(), as: UTF8.self)
    #expect(inspect.status == 0, "\(inspect)")
    #expect(html.hasPrefix("<!doctype html>"), "the FIFO's reader got \(html.prefix(80))")
    #expect(isFIFO(fifo) && isSymbolicLink(stdout))

    let recorded = FIFOReader(fifo)
    let counter = try sandbox.run("counter", ["--record", stdout.path])
    let json = recorded.result() ?? Data()
    #expect(counter.status == 0, "\(counter)")
    #expect((try? JSONSerialization.jsonObject(with: json)) != nil, "not a whole recording")
    #expect(isFIFO(fifo) && isSymbolicLink(stdout))
  }

  // MARK: - 3. A closed standard input

  /// `app <&-`: a closed standard input is the end of input, so the session ends at once (the
  /// signal pipe used to take descriptor 0, and the session waited forever on it).
  @Test(arguments: ["counter", "touch-school", "qapple"])
  func aClosedStandardInputIsTheEndOfInput(app: String) throws {
    defer { sandbox.remove() }
    let run = try runThroughShell(
      #"exec "$0" "$@" <&-"#, app, ["--interactive"], timeout: 20)
    #expect(!run.hung && run.status == 0, "\(run)")
    sandbox.expectNoLitter()
  }

  // MARK: - 2. A signal behind queued commands

  /// 400 queued `tap 10000` (seconds of work each way): a Ctrl-C ends the session after the
  /// command running then, not after all of them, and every tap shown is saved.
  @Test func aSignalEndsTheSessionAfterTheCommandRunningNow() throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let app = try start("touch-school", ["--interactive", "--data-dir", data.path])
    app.type("pick 7130027")
    app.type("play")
    try #require(app.read(until: "> game(") != nil, "\(app.transcript)")
    app.type(Array(repeating: "tap 10000", count: 400).joined(separator: "\n"))
    try #require(app.read(until: "10000 touches") != nil, "\(app.transcript)")
    let sent = Date()
    app.send(SIGINT)
    let status = app.exitStatus(timeout: 15)
    #expect(status == 130, "exit \(String(describing: status)) \(app.transcript.suffix(300))")
    #expect(Date().timeIntervalSince(sent) < 15)
    _ = app.read(until: "\u{0}", timeout: 2)
    let shown = app.transcript.split(separator: "\n").compactMap { line -> Int? in
      guard let range = line.range(of: "game(서울고등학교: ") else { return nil }
      return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
    let saved = try touches(in: data.appendingPathComponent("ranking.json"))["7130027"] ?? 0
    #expect(saved == shown.last, "saved \(saved), last shown \(String(describing: shown.last))")
    #expect(saved < 400 * 10_000, "every queued command ran")
  }

  /// A second signal exits at once, and says on standard error what it did not save; the
  /// temporary data folder of a session without `--data-dir` is removed all the same.
  @Test func aSecondSignalSaysWhatItDidNotSaveAndLeavesNoFolder() throws {
    defer { sandbox.remove() }
    let file = sandbox.base.appendingPathComponent("touch.json")
    let app = try start("touch-school", ["--interactive", "--record", file.path])
    app.type("pick 7130027")
    app.type("play")
    try #require(app.read(until: "> game(") != nil, "\(app.transcript)")
    app.type("tap 10000")
    try #require(app.readErrors(until: " of 10000...") != nil, "\(app.transcript)")
    app.send(SIGINT)
    Thread.sleep(forTimeInterval: 0.3)
    app.send(SIGINT)
    #expect(app.exitStatus(timeout: 10) == 130, "\(app.transcript)")
    let errors = app.errorText
    #expect(
      errors.contains("touch-school: a second signal: exiting at once; not saved: "), "\(errors)")
    #expect(errors.contains("the recording to \(file.path)"), "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: file.path))
    sandbox.expectNoLitter()
  }

  // MARK: - 4. One app's files safe from another's --record

  @Test func aRecordingIsRefusedOverAnyFileTheAppsKeep() throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("shared")
    let ranking = data.appendingPathComponent("ranking.json")
    // touch-school has saved its ranking there, and is using the folder.
    let seed = try sandbox.run(
      "touch-school", ["--interactive", "--data-dir", data.path],
      input: "pick 7130027\nplay\ntap 3\nquit\n")
    try #require(seed.status == 0, "\(seed)")
    let school = try start("touch-school", ["--interactive", "--data-dir", data.path])
    try #require(school.read(until: "type 'help'") != nil, "\(school.transcript)")
    let before = try Data(contentsOf: ranking)
    let link = sandbox.base.appendingPathComponent("innocent.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: ranking)
    for (path, says) in [
      (ranking.path, "ranking.json: touch-school's ranking"),
      (data.path + "/.qapple.lock", ".qapple.lock: qapple's lock file"),
      (data.path + "/.touch-school.lock", ".touch-school.lock: touch-school's lock file"),
      (link.path, "ranking.json: touch-school's ranking"),
    ] {
      let run = try sandbox.run(
        "qapple", ["--interactive", "--data-dir", data.path, "--record", path, "--force"],
        input: "quit\n")
      #expect(run.status == 2, "\(path): \(run)")
      #expect(run.errors.contains(says), "\(path): \(run)")
    }
    #expect(try Data(contentsOf: ranking) == before)
    school.type("quit")
    #expect(school.exitStatus() == 0)
  }

  @Test func aRecordingReplacesAnotherFileOnlyWithForce() throws {
    defer { sandbox.remove() }
    let notes = sandbox.base.appendingPathComponent("notes.json")
    let text = Data(#"{"todo": "buy milk"}"#.utf8)
    try text.write(to: notes)
    let refused = try sandbox.run("counter", ["--record", notes.path])
    #expect(refused.status == 2, "\(refused)")
    #expect(refused.errors.contains("it holds something that is not a recording"), "\(refused)")
    #expect(refused.errors.contains("--force"), "\(refused)")
    #expect(try Data(contentsOf: notes) == text)

    let forced = try sandbox.run("counter", ["--record", notes.path, "--force"])
    #expect(forced.status == 0, "\(forced)")
    // A recording is replaced without --force: recording again is the usual thing to do.
    let again = try sandbox.run("counter", ["--record", notes.path])
    #expect(again.status == 0, "\(again)")
  }

  // MARK: - 5, 6. A failed save: a non-zero exit, what was not saved, and why, in words

  @Test(.enabled(if: FullDisk.canMount))
  func aSaveOnAFullDiskExitsNonZeroAndSaysWhatWasNotSaved() throws {
    defer { sandbox.remove() }
    let disk = try FullDisk(sandbox.base.appendingPathComponent("full"))
    defer { disk.unmount() }
    let run = try sandbox.run(
      "touch-school", ["--interactive", "--data-dir", disk.folder.path],
      input: "pick 7130027\nplay\ntap 70\nquit\n")
    #expect(run.status == 1, "\(run)")
    #expect(run.output.contains("70 touches"), "\(run)")
    #expect(
      run.errors.contains(
        "touch-school: the last save failed, so this was not saved: the ranking in \(disk.folder.path)/ranking.json (the disk is full)"
      ), "\(run)")
    #expect(!run.errors.contains("NSCocoaErrorDomain") && !run.errors.contains("Code="), "\(run)")

    let qapple = try sandbox.run(
      "qapple", ["--interactive", "--data-dir", disk.folder.path],
      input: "answers\nlike 1\nquit\n")
    #expect(qapple.status == 1, "\(qapple)")
    #expect(
      qapple.output.contains(
        "could not be saved to \(disk.folder.path)/qapple-local.json: the disk is full"),
      "\(qapple)")
    #expect(qapple.errors.contains("not saved: your answers, likes and reports"), "\(qapple)")
  }

  @Test(.enabled(if: FullDisk.canMount))
  func aRecordingOnAFullDiskIsReportedInWords() throws {
    defer { sandbox.remove() }
    let disk = try FullDisk(sandbox.base.appendingPathComponent("full"))
    defer { disk.unmount() }
    let file = disk.folder.appendingPathComponent("session.json")
    let run = try sandbox.run("counter", ["--record", file.path])
    #expect(run.status == 1, "\(run)")
    #expect(
      run.errors.contains("counter: cannot write the recording to \(file.path): the disk is full"),
      "\(run)")
    #expect(!run.errors.contains("NSCocoaErrorDomain") && !run.errors.contains("Code="), "\(run)")
    let left = try FileManager.default.contentsOfDirectory(atPath: disk.folder.path)
    #expect(left.filter { $0 != "filler" } == [], "a temporary file was left: \(left)")
  }

  /// The ranking replaced by a folder while the game runs: the failure says so in words (it was
  /// "NSCocoaErrorDomain error 512"), and the session exits non-zero.
  @Test func aDataFileReplacedByAFolderIsSaidInWords() throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let app = try start("touch-school", ["--interactive", "--data-dir", data.path])
    app.type("pick 7130027")
    app.type("play")
    try #require(app.read(until: "> game(") != nil, "\(app.transcript)")
    let ranking = data.appendingPathComponent("ranking.json")
    // The rivals save the ranking every 700 ms: retried until the folder is in its place.
    var isFolder: ObjCBool = false
    for _ in 1...20 where !isFolder.boolValue {
      try? FileManager.default.removeItem(at: ranking)
      try? FileManager.default.createDirectory(at: ranking, withIntermediateDirectories: false)
      _ = FileManager.default.fileExists(atPath: ranking.path, isDirectory: &isFolder)
    }
    try #require(isFolder.boolValue)
    try Data("mine".utf8).write(to: ranking.appendingPathComponent("keep.txt"))
    app.type("tap 5")
    app.type("quit")
    #expect(app.exitStatus() == 1, "\(app.transcript)")
    let errors = app.errorText
    #expect(errors.contains("\(ranking.path): a folder is where the file should be"), "\(errors)")
    #expect(!errors.contains("NSCocoaErrorDomain") && !errors.contains("error 512"), "\(errors)")
  }

  /// A recording read from a FIFO (`cascade-inspect <(cat session.json)`) is read, not refused
  /// with "You don't have permission".
  @Test func theInspectorReadsARecordingFromAPipe() throws {
    defer { sandbox.remove() }
    let recording = sandbox.base.appendingPathComponent("session.json")
    try #require(try sandbox.run("counter", ["--record", recording.path]).status == 0)
    let fifo = sandbox.base.appendingPathComponent("recording-pipe")
    try #require(mkfifo(fifo.path, 0o644) == 0)
    let writer = FIFOWriter(fifo, try Data(contentsOf: recording))
    let page = sandbox.base.appendingPathComponent("page.html")
    let run = try sandbox.run("cascade-inspect", [fifo.path, "-o", page.path])
    writer.finish()
    #expect(run.status == 0, "\(run)")
    #expect(!run.errors.contains("permission"), "\(run)")
    #expect(FileManager.default.fileExists(atPath: page.path))
  }

  // MARK: - 7. Arguments echoed escaped and cut

  @Test func argumentsAndWrittenTextAreShownEscapedAndCut() throws {
    defer { sandbox.remove() }
    let hostile = "\u{1B}[2J\u{1B}]0;owned\u{7}" + String(repeating: "x", count: 100_000)
    let sessions: [(String, [String], [String])] = [
      (
        "qapple", ["--data-dir", sandbox.folder("q").path],
        [
          "answers", "like \(hostile)", "report \(hostile)", "delete \(hostile)",
          "write \(hostile)", "list",
        ]
      ),
      (
        "touch-school", ["--data-dir", sandbox.folder("t").path],
        ["pick \(hostile)", "pick 7130027", "play", "tap \(hostile)"]
      ),
      (
        "clean-area", ["--data-dir", sandbox.folder("c").path],
        ["category \(hostile)", "categories", "search \(hostile)", "all", "open \(hostile)"]
      ),
      ("seoul-salam", ["--no-changes"], ["observe", "open \(hostile)"]),
    ]
    for (app, arguments, commands) in sessions {
      let run = try sandbox.run(
        app, ["--interactive"] + arguments, input: (commands + ["quit"]).joined(separator: "\n"))
      #expect(!run.hung && run.status == 0, "\(app): \(run.errors)")
      let text = run.output + run.errors
      #expect(!text.contains("\u{1B}") && !text.contains("\u{7}"), "\(app) let a control through")
      let longest = text.split(separator: "\n").map(\.count).max() ?? 0
      #expect(longest < 600, "\(app) printed a line of \(longest) characters")
      #expect(text.contains("\\u{1B}[2J"), "\(app) did not show the argument escaped")
    }
  }

  // MARK: - 8. Scratch folders never leak

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalInTheMiddleOfAScenarioLeavesNoFolder(_ signal: Int32) throws {
    defer { sandbox.remove() }
    let app = try start("seoul-salam", [])
    try #require(app.read(until: "\n") != nil, "\(app.transcript)")
    app.send(signal)
    #expect(app.exitStatus() == 128 + signal, "\(app.transcript)")
    sandbox.expectNoLitter()
  }

  @Test func aClosedOutputPipeInTheMiddleOfAScenarioLeavesNoFolder() throws {
    defer { sandbox.remove() }
    let app = try start("seoul-salam", [])
    try #require(app.read(until: "\n") != nil, "\(app.transcript)")
    app.closeOutput()  // `seoul-salam | head -1`
    #expect(app.exitStatus() != nil)
    sandbox.expectNoLitter()
  }

  // MARK: - 9. The smaller ones

  @Test func theOpenThemWithHintIsAShellCommand() throws {
    defer { sandbox.remove() }
    let folder = sandbox.folder("my sessions")
    let file = folder.appendingPathComponent("it's.json")
    let run = try sandbox.run("counter", ["--record", file.path])
    #expect(run.status == 0, "\(run)")
    let quoted = "'" + file.path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    #expect(run.output.contains("open them with: cascade-inspect \(quoted)\n"), "\(run)")
    #expect(!run.output.contains("swift run"), "\(run)")
    // The hint, run by a shell, opens the recording.
    let command = try #require(run.output.split(separator: "\n").last { $0.contains("open them") })
    let hint = String(command[command.range(of: "open them with: ")!.upperBound...])
    let inspect = try Executable(url: URL(fileURLWithPath: "/bin/sh")).run(
      ["-c", "PATH=\"\(Executable.directory.path):$PATH\" " + hint], in: sandbox.base,
      temporaryDirectory: sandbox.tmp)
    #expect(inspect.status == 0, "\(inspect)")
  }

  /// (Left out: Qapple's scenario posts an answer dated by the wall clock, and in CleanArea's a
  /// bookmark observation races a pop, recorded in the other order about one run in six.)
  @Test(arguments: ["counter", "taptap"])
  func identicalRunsWriteIdenticalRecordingsAndPages(app: String) throws {
    defer { sandbox.remove() }
    var files: [Data] = []
    for name in ["a", "b"] {
      let recording = sandbox.base.appendingPathComponent("\(name).json")
      let page = sandbox.base.appendingPathComponent("\(name).html")
      try #require(try sandbox.run(app, ["--record", recording.path]).status == 0)
      try #require(
        try sandbox.run("cascade-inspect", [recording.path, "-o", page.path, "--title", "t"])
          .status == 0)
      files += [try Data(contentsOf: recording), try Data(contentsOf: page)]
    }
    #expect(files[0] == files[2], "the recordings differ")
    #expect(files[1] == files[3], "the pages differ")
  }

  /// Linux only: elsewhere the lock file alone keeps a second copy out.
  @Test(.enabled(if: FullDisk.isLinux))
  func aDeletedLockFileDoesNotLetASecondCopyIn() throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let first = try start("clean-area", ["--interactive", "--data-dir", data.path])
    try #require(first.read(until: "\n") != nil, "\(first.transcript)")
    try FileManager.default.removeItem(at: data.appendingPathComponent(".clean-area.lock"))
    let second = try sandbox.run(
      "clean-area", ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(second.status == 2, "\(second)")
    #expect(second.errors.contains("another clean-area is using the data folder"), "\(second)")
    // Another app on the same folder is still welcome.
    let other = try sandbox.run(
      "qapple", ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(other.status == 0, "\(other)")
    first.type("quit")
    #expect(first.exitStatus() == 0)
    let third = try sandbox.run(
      "clean-area", ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(third.status == 0, "\(third)")
  }

  @Test(arguments: ["qapple", "touch-school"])
  func tooFewOpenFilesIsSaidNotATrap(app: String) throws {
    defer { sandbox.remove() }
    let run = try runThroughShell(
      #"ulimit -n 8 && exec "$0" "$@""#, app,
      ["--interactive", "--data-dir", sandbox.folder("data").path], input: "answers\nquit\n")
    #expect(run.status == 2, "\(run)")
    #expect(run.errors.contains("\(app): cannot open the files it needs"), "\(run)")
    #expect(run.errors.contains("ulimit -n"), "\(run)")
  }
}

/// A 64 KB tmpfs mounted on a scratch folder and filled to the last byte (as root); unmount it
/// before the folder is removed.
struct FullDisk {
  let folder: URL

  static var isLinux: Bool {
    #if os(Linux)
      true
    #else
      false
    #endif
  }

  /// Whether a tmpfs can be mounted here: on Linux, as root (as CI runs).
  static var canMount: Bool { isLinux && getuid() == 0 }

  init(_ folder: URL) throws {
    self.folder = folder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try #require(getuid() == 0, "a full disk is a tmpfs, which only root can mount")
    let mount = try Executable(url: URL(fileURLWithPath: "/bin/sh")).run(
      ["-c", #"mount -t tmpfs -o size=64k tmpfs "$0""#, folder.path], in: folder,
      temporaryDirectory: folder.deletingLastPathComponent().appendingPathComponent("tmp"))
    try #require(mount.status == 0, "cannot mount a tmpfs: \(mount)")
    let filler = open(folder.appendingPathComponent("filler").path, O_WRONLY | O_CREAT, 0o644)
    try #require(filler >= 0)
    let block = [UInt8](repeating: 0, count: 1024)
    var count = 0
    while count < 1_000, write(filler, block, block.count) > 0 { count += 1 }
    var byte: UInt8 = 0
    while write(filler, &byte, 1) > 0 {}
    close(filler)
  }

  func unmount() {
    _ = try? Executable(url: URL(fileURLWithPath: "/bin/sh")).run(
      ["-c", #"umount "$0""#, folder.path], in: folder.deletingLastPathComponent(),
      temporaryDirectory: folder.deletingLastPathComponent().appendingPathComponent("tmp"))
  }
}

/// A thread reading a FIFO to its end; ``result(timeout:)`` waits for it, with a deadline.
final class FIFOReader: @unchecked Sendable {
  // `@unchecked Sendable`: `data` is written by the thread before `done` is signalled, and read
  // only after.
  private let path: String
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ fifo: URL) {
    path = fifo.path
    Thread { [self] in
      let descriptor = open(path, O_RDONLY)
      if descriptor >= 0 {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
          let count = read(descriptor, &buffer, buffer.count)
          guard count > 0 else { break }
          data.append(contentsOf: buffer[..<count])
        }
        close(descriptor)
      }
      done.signal()
    }.start()
  }

  /// What was read, once the writer closed the FIFO; `nil` when nothing wrote in `timeout`
  /// (the reader is then released).
  func result(timeout: TimeInterval = 10) -> Data? {
    if done.wait(timeout: .now() + timeout) == .success { return data }
    let release = open(path, O_WRONLY | O_NONBLOCK)
    if release >= 0 { close(release) }
    _ = done.wait(timeout: .now() + 5)
    return nil
  }
}

/// A thread writing `data` into a FIFO once a reader opens it.
final class FIFOWriter: @unchecked Sendable {
  private let path: String
  private let done = DispatchSemaphore(value: 0)

  init(_ fifo: URL, _ data: Data) {
    path = fifo.path
    Thread { [self] in
      let descriptor = open(path, O_WRONLY)
      if descriptor >= 0 {
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
      }
      done.signal()
    }.start()
  }

  /// Waits for the writer, releasing it if no reader came.
  func finish() {
    if done.wait(timeout: .now() + 1) == .success { return }
    let release = open(path, O_RDONLY | O_NONBLOCK)
    _ = done.wait(timeout: .now() + 5)
    if release >= 0 { close(release) }
  }
}
