import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The example executables driven live, as a person at a terminal or a script over pipes drives
/// them: each reply read before the next command, signals sent mid-session, two copies on one
/// data folder, effects running while the session waits for input, outputs that name inputs.
///
/// Like the rest of the end-to-end suite they need `swift build` and `CASCADE_E2E=1`.
@Suite(
  .serialized, .enabled(if: ProcessInfo.processInfo.environment["CASCADE_E2E"] == "1"),
  .timeLimit(.minutes(10)))
struct LiveSessionEndToEndTests {
  let sandbox = Sandbox()

  func start(_ app: String, _ arguments: [String]) throws -> LiveProcess {
    let executable = Executable(name: app)
    try #require(executable.isBuilt, "\(executable.url.path) is not built: run `swift build`")
    return try LiveProcess(executable, arguments, in: sandbox.base, temporaryDirectory: sandbox.tmp)
  }

  func touches(in file: URL) throws -> [String: Int] {
    struct Saved: Decodable { let touches: [String: Int] }
    return try JSONDecoder().decode(Saved.self, from: Data(contentsOf: file)).touches
  }

  // MARK: - Signals

  /// Ctrl-C, `kill` and a closed terminal end the session as `quit` does: the taps waiting in
  /// the game's batch are written, and the exit status is the shell's 128 + the signal.
  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aSignalSavesTheTapsStillWaiting(_ signal: Int32) throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data-\(signal)")
    let app = try start("touch-school", ["--interactive", "--data-dir", data.path])
    app.type("pick 7130027")
    app.type("play")
    app.type("tap 500")
    try #require(app.read(until: "(500 waiting)") != nil, "\(app.transcript)")
    app.send(signal)
    #expect(app.exitStatus() == 128 + signal)
    #expect(app.exitedNormally)
    #expect(try touches(in: data.appendingPathComponent("ranking.json"))["7130027"] == 500)
    sandbox.expectNoLitter()
  }

  @Test func aSessionInterruptedByCtrlCStillWritesItsRecording() throws {
    defer { sandbox.remove() }
    let file = sandbox.base.appendingPathComponent("counter.json")
    let app = try start("counter", ["--interactive", "--record", file.path])
    app.type("+")
    try #require(app.read(until: "count = 1") != nil, "\(app.transcript)")
    app.send(SIGINT)
    #expect(app.exitStatus() == 130)
    let recording = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
    let session = (recording as? [String: Any])?["session"] as? [String: Any]
    #expect((session?["steps"] as? [Any])?.count == 1)
    #expect(app.read(until: "recorded 1 actions") != nil, "\(app.transcript)")
  }

  /// TouchSchool with its game open, recording into the file returned.
  func startRecordedGame() throws -> (LiveProcess, URL) {
    let data = sandbox.folder("data")
    let file = sandbox.base.appendingPathComponent("touch.json")
    let app = try start(
      "touch-school", ["--interactive", "--data-dir", data.path, "--record", file.path])
    app.type("pick 7130027")
    app.type("play")
    try #require(app.read(until: "> game(") != nil, "\(app.transcript)")
    return (app, file)
  }

  /// A long run of recorded taps (seconds in a debug build) says how far it got, and writing
  /// its recording at the end says so before it starts: on standard error, so that the replies
  /// on standard output stay one per command.
  @Test func longWorkShowsItsProgress() throws {
    defer { sandbox.remove() }
    let (app, _) = try startRecordedGame()
    app.type("tap 10000")
    try #require(app.read(until: "10000 touches", timeout: 120) != nil, "\(app.transcript)")
    app.type("quit")
    #expect(app.exitStatus(timeout: 120) == 0, "\(app.transcript)")
    let errors = app.errorText
    #expect(errors.contains("touch-school: tapped "), "\(errors)")
    #expect(errors.contains(" of 10000..."), "\(errors)")
    #expect(errors.contains("touch-school: writing the recording of 10"), "\(errors)")
    #expect(!app.transcript.contains("tapped "), "progress went to standard output")
  }

  /// A first Ctrl-C lets the session finish the command in progress and leave cleanly; a
  /// second one, for a user who will not wait, exits at once with the same status. Here the
  /// command in progress is a long run of recorded taps (seconds of work).
  @Test func aSecondCtrlCExitsAtOnce() throws {
    defer { sandbox.remove() }
    let (app, file) = try startRecordedGame()
    // 10,000 recorded taps take seconds in a debug build: the signals come in the middle, once
    // the first progress line shows the taps have begun.
    app.type("tap 10000")
    try #require(app.readErrors(until: " of 10000...") != nil, "\(app.transcript)")
    app.send(SIGINT)
    Thread.sleep(forTimeInterval: 0.3)
    let second = Date()
    app.send(SIGINT)
    #expect(app.exitStatus(timeout: 10) == 130, "\(app.transcript)")
    #expect(Date().timeIntervalSince(second) < 2, "the second Ctrl-C did not exit at once")
    #expect(app.exitedNormally)
    // It left in the middle of the run: the taps never all landed, and no recording was
    // written (what the first Ctrl-C would have waited for).
    _ = app.read(until: "\u{0}", timeout: 2)
    #expect(!app.transcript.contains("10000 touches"), "\(app.transcript)")
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  // MARK: - Two copies

  @Test(arguments: ["taptap", "qapple", "clean-area", "touch-school"])
  func aSecondCopyOnTheSameDataFolderIsRefused(_ program: String) throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let first = try start(program, ["--interactive", "--data-dir", data.path])
    try #require(first.read(until: "\n") != nil, "\(first.transcript)")

    let second = try sandbox.run(
      program, ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(!second.hung && second.status == 2, "\(second)")
    #expect(
      second.errors.contains("another \(program) is using the data folder \(data.path)"),
      "\(second)")

    // The first copy is unharmed and, once it has quit, the folder is free again.
    first.type("quit")
    #expect(first.exitStatus() == 0)
    let third = try sandbox.run(
      program, ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(!third.hung && third.status == 0, "\(third)")
  }

  @Test func aCopyKilledOutrightLeavesTheFolderFree() throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let first = try start("clean-area", ["--interactive", "--data-dir", data.path])
    try #require(first.read(until: "\n") != nil, "\(first.transcript)")
    // It holds the folder...
    let refused = try sandbox.run(
      "clean-area", ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(refused.status == 2, "\(refused)")
    // ...until it is killed, when nothing it could run was left to release it.
    first.send(SIGKILL)
    #expect(first.exitStatus() != nil)
    let next = try sandbox.run(
      "clean-area", ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(!next.hung && next.status == 0, "\(next)")
  }

  // MARK: - Pipes and waiting

  /// A script over pipes reads each reply before it sends the next command: the output is
  /// written line by line, not when the process ends.
  @Test func eachReplyComesOverAPipeBeforeTheNextCommand() throws {
    defer { sandbox.remove() }
    let app = try start(
      "touch-school", ["--interactive", "--data-dir", sandbox.folder("data").path])
    try #require(app.read(until: "type 'help' for commands") != nil, "\(app.transcript)")
    app.type("find 서울고")
    try #require(app.read(until: "7130027") != nil, "\(app.transcript)")
    app.type("pick 7130027")
    app.type("play")
    try #require(app.read(until: "game(") != nil, "\(app.transcript)")
    app.type("tap 2")
    try #require(app.read(until: "(2 waiting)") != nil, "\(app.transcript)")
    app.type("quit")
    #expect(app.exitStatus() == 0)
  }

  /// The counter's timer ticks while the session waits for the next line: input is read off
  /// the main actor.
  @Test func aTimerKeepsTickingWhileTheSessionWaitsForInput() throws {
    defer { sandbox.remove() }
    let app = try start("counter", ["--interactive"])
    app.type("timer")
    try #require(app.read(until: "timer on") != nil, "\(app.transcript)")
    Thread.sleep(forTimeInterval: 3.5)
    app.type("state")
    let reply = try #require(app.read(until: "timer on"), "\(app.transcript)")
    let count = reply.split(separator: "\n").last { $0.hasPrefix("count = ") }
      .flatMap { Int($0.dropFirst("count = ".count).prefix { $0.isNumber }) }
    // Three ticks in 3.5 s; at least two however busy the machine (blocked input gave none).
    #expect((count ?? 0) >= 2, "\(app.transcript)")
    app.type("quit")
    #expect(app.exitStatus() == 0)
  }

  @Test func endOfInputStillEndsTheSessionWithStatusZero() throws {
    defer { sandbox.remove() }
    let app = try start("counter", ["--interactive"])
    app.type("+")
    try #require(app.read(until: "count = 1") != nil, "\(app.transcript)")
    app.closeInput()
    #expect(app.exitStatus() == 0)
  }

  // MARK: - Outputs that are inputs

  @Test func aRecordingNamedLikeADataFileIsRefused() throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let saved = data.appendingPathComponent("qapple-local.json")
    // A like is saved: the data file exists, and must come out of the refusals unchanged.
    let seed = try sandbox.run(
      "qapple", ["--interactive", "--data-dir", data.path], input: "answers\nlike 1\nquit\n")
    try #require(seed.status == 0, "\(seed)")
    let before = try #require(try? Data(contentsOf: saved), "\(seed)")
    let link = sandbox.base.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: data)
    for path in [
      saved.path, data.path + "/../data/qapple-local.json", link.path + "/qapple-local.json",
    ] {
      let run = try sandbox.run(
        "qapple", ["--interactive", "--data-dir", data.path, "--record", path], input: "quit\n")
      #expect(run.status == 2, "\(run)")
      #expect(run.errors.contains("--record \(path) is one of the data files"), "\(run)")
      #expect((try? Data(contentsOf: saved)) == before)
    }
  }

  @Test func aRecordingNamedLikeAnInputFileIsRefused() throws {
    defer { sandbox.remove() }
    let changes = sandbox.base.appendingPathComponent("changes.json")
    let text = Data("[]".utf8)
    try text.write(to: changes)
    let run = try sandbox.run(
      "seoul-salam", ["--interactive", "--changes", changes.path, "--record", changes.path],
      input: "quit\n")
    #expect(run.status == 2, "\(run)")
    #expect(run.errors.contains("it is the file given to --changes"), "\(run)")
    #expect(try Data(contentsOf: changes) == text)
  }

  @Test func theInspectorNeverWritesItsPageOverTheRecording() throws {
    defer { sandbox.remove() }
    let file = sandbox.base.appendingPathComponent("session.json")
    let recorded = try sandbox.run("counter", ["--record", file.path])
    try #require(recorded.status == 0, "\(recorded)")
    let before = try Data(contentsOf: file)
    let html = sandbox.base.appendingPathComponent("session.html")
    try FileManager.default.copyItem(at: file, to: html)
    for arguments in [
      [file.path, "-o", file.path], [file.path, "-o", sandbox.base.path + "/./session.json"],
      [html.path],
    ] {
      let run = try sandbox.run("cascade-inspect", arguments)
      #expect(run.status == 2, "\(run)")
      #expect(run.errors.contains("the page would replace the recording"), "\(run)")
    }
    #expect(try Data(contentsOf: file) == before)
    #expect(try Data(contentsOf: html) == before)
  }

  // MARK: - What a user sees

  /// A corrupt data file is reported to the user by the program's name, with the file and what
  /// became of it, not as a developer's warning with a source file and line.
  @Test(arguments: [
    ("touch-school", "ranking.json", "The TouchSchool ranking at"),
    ("clean-area", "bookmarks.json", "bookmarks"),
  ])
  func aCorruptFileIsReportedInTheUsersWords(app: String, file: String, says: String) throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    try Data("not json".utf8).write(to: data.appendingPathComponent(file))
    let run = try sandbox.run(app, ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(!run.hung && run.status == 0, "\(run)")
    #expect(run.errors.contains("\(app): "), "\(run)")
    #expect(run.errors.contains(says), "\(run)")
    #expect(run.errors.contains("unreadable"), "\(run)")
    #expect(!run.errors.contains("[Cascade]") && !run.errors.contains(".swift:"), "\(run)")
  }

  /// What a user writes is kept as typed: `write` keeps the text's own spaces.
  @Test func writtenTextKeepsItsSpaces() throws {
    defer { sandbox.remove() }
    let run = try sandbox.run(
      "qapple", ["--interactive", "--data-dir", sandbox.folder("data").path],
      input: "answers\nwrite  two  spaces   and three\nquit\n")
    #expect(!run.hung && run.status == 0, "\(run)")
    #expect(run.output.contains("Me: two  spaces   and three [mine]"), "\(run)")
  }

  @Test func anUnknownCommandIsShownBackShortAndHarmless() throws {
    defer { sandbox.remove() }
    let typed = "\u{1B}[2J" + String(repeating: "x", count: 1_000_000)
    let run = try sandbox.run(
      "touch-school", ["--interactive", "--data-dir", sandbox.folder("data").path],
      input: typed + "\nquit\n")
    #expect(!run.hung && run.status == 0, "\(run)")
    let reply = try #require(run.output.split(separator: "\n").first { $0.contains("unknown") })
    #expect(reply.contains("\\u{1B}[2Jxxx"))
    #expect(reply.contains("(1000004 characters)"))
    #expect(reply.count < 200)
    #expect(!run.output.contains("\u{1B}"))
  }
}
