import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built example executables, run as a user runs them: scripted `--interactive` sessions
/// typed on standard input, `quit` and the end of input, corrupt files met twice, folders that
/// are files, missing, read-only or under a file, bad command lines, commands for another
/// screen; some under a background CPU load. Every run has a time limit: a run that outlives
/// it is killed and fails the test as hung.
///
/// They need the executables built (`swift build`) and run when `CASCADE_E2E=1`, as CI does
/// (`.ci/run`): `CASCADE_E2E=1 swift test --filter EndToEndTests`.
@Suite(
  .serialized, .enabled(if: ProcessInfo.processInfo.environment["CASCADE_E2E"] == "1"),
  .timeLimit(.minutes(10)))
struct EndToEndTests {
  static let interactiveApps = ["taptap", "qapple", "clean-area", "touch-school"]
  static let dataFiles = [
    "taptap": "settings.json", "qapple": "qapple-local.json", "clean-area": "bookmarks.json",
    "touch-school": "ranking.json",
  ]

  let sandbox = Sandbox()

  // MARK: - Hangs and lost data

  @Test func touchSchoolQuitUnderLoadSavesTheWaitingBatch() throws {
    defer { sandbox.remove() }
    let load = CPULoad()
    defer { load.stop() }
    for round in 1...5 {
      let data = sandbox.folder("data-\(round)")
      let run = try sandbox.run(
        "touch-school", ["--interactive", "--data-dir", data.path],
        input: "pick 7130027\nplay\ntap 5\nquit\n")
      try #require(!run.hung && run.status == 0, "\(run)")
      #expect(try touches(in: data.appendingPathComponent("ranking.json"))["7130027"] == 5)
    }
    sandbox.expectNoLitter()
  }

  @Test func touchSchoolEndOfInputSavesTheWaitingBatch() throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let run = try sandbox.run(
      "touch-school", ["--interactive", "--data-dir", data.path],
      input: "pick 7130027\nplay\ntap 3\n"
    )
    try #require(!run.hung && run.status == 0, "\(run)")
    #expect(try touches(in: data.appendingPathComponent("ranking.json"))["7130027"] == 3)
  }

  @Test func touchSchoolRefusesAHugeTapCountInsteadOfSpinning() throws {
    defer { sandbox.remove() }
    let run = try sandbox.run(
      "touch-school", ["--interactive", "--data-dir", sandbox.folder("data").path],
      input: "pick 7130027\nplay\ntap 9223372036854775807\ntap -1\nquit\n", timeout: 20)
    try #require(!run.hung && run.status == 0, "\(run)")
    #expect(
      run.output.contains("tap N: N is a whole number from 1 to 10000, not '9223372036854775807'"))
    #expect(run.output.contains("not '-1'"))
  }

  @Test func cleanAreaQuitUnderLoadKeepsTheBookmarks() throws {
    defer { sandbox.remove() }
    let load = CPULoad()
    defer { load.stop() }
    for round in 1...5 {
      let data = sandbox.folder("data-\(round)")
      let run = try sandbox.run(
        "clean-area", ["--interactive", "--data-dir", data.path],
        input: "open 1\nbookmark\nback\nopen 2\nbookmark\nbookmark\nhome\nquit\n")
      try #require(!run.hung && run.status == 0, "\(run)")
      let saved = try Data(contentsOf: data.appendingPathComponent("bookmarks.json"))
      #expect(try JSONDecoder().decode([Int].self, from: saved) == [1])
    }
    sandbox.expectNoLitter()
  }

  @Test func seoulSalamShowsAMissingDataSetInsteadOfHanging() throws {
    defer { sandbox.remove() }
    let missing = sandbox.base.appendingPathComponent("missing.json").path
    let run = try sandbox.run(
      "seoul-salam", ["--interactive", "--data", missing, "--no-changes"],
      input: "observe\nlist\nretry\nquit\n", timeout: 20)
    try #require(!run.hung && run.status == 0, "\(run)")
    #expect(run.output.contains("! The listings are unavailable: cannot read missing.json."))
  }

  // MARK: - Corrupt files, twice

  @Test(arguments: [
    ("touch-school", "quit\n"), ("clean-area", "quit\n"),
    ("taptap", "appear\nquit\n"), ("qapple", "answers\nquit\n"),
  ])
  func aSecondCorruptFileKeepsTheFirstOnesRescuedCopy(app: String, session: String) throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let file = data.appendingPathComponent(Self.dataFiles[app]!)
    let stem = file.deletingPathExtension().lastPathComponent
    var arguments = ["--interactive", "--data-dir", data.path]
    if app == "taptap" { arguments += ["--splash-ms", "0"] }
    for text in ["first corrupt", "second corrupt"] {
      try Data(text.utf8).write(to: file)
      let run = try sandbox.run(app, arguments, input: session)
      try #require(!run.hung && run.status == 0, "\(run)")
      if app == "taptap" {
        #expect(run.output.contains("Your settings could not be read, so the app started fresh"))
      }
    }
    for (number, text) in [(1, "first corrupt"), (2, "second corrupt")] {
      let kept = data.appendingPathComponent("\(stem).unreadable-\(number).json")
      #expect((try? String(contentsOf: kept, encoding: .utf8)) == text, "\(kept.lastPathComponent)")
    }
  }

  // MARK: - Data folders

  @Test(arguments: EndToEndTests.interactiveApps)
  func aDataFolderThatIsAFileIsRefusedAtStart(app: String) throws {
    defer { sandbox.remove() }
    let file = sandbox.base.appendingPathComponent("a-file")
    try Data("mine".utf8).write(to: file)
    for arguments in [["--interactive", "--data-dir", file.path], ["--data-dir", file.path]] {
      let run = try sandbox.run(app, arguments)
      #expect(run.status == 2, "\(run)")
      #expect(run.errors.contains("the data folder \(file.path) is a file, not a folder"), "\(run)")
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
    sandbox.expectNoLitter()
  }

  @Test(arguments: EndToEndTests.interactiveApps)
  func aDataFolderUnderAFileIsRefusedWithTheReason(app: String) throws {
    defer { sandbox.remove() }
    let file = sandbox.base.appendingPathComponent("a-file")
    try Data("mine".utf8).write(to: file)
    let folder = file.appendingPathComponent("data")
    let run = try sandbox.run(app, ["--interactive", "--data-dir", folder.path])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.errors.contains(
        "cannot create the data folder \(folder.path): \(file.path) is a file, not a folder"),
      "\(run)")
  }

  /// A read-only folder is refused, by an explicit write probe. Root is not bound by
  /// permissions (CI runs as root): there the folder is writable, and the app must work in it;
  /// on Linux, `/proc` is a folder root cannot write in either, refused the same way.
  @Test(arguments: EndToEndTests.interactiveApps)
  func aReadOnlyDataFolderIsRefusedUnlessItIsWritableAfterAll(app: String) throws {
    defer { sandbox.remove() }
    let folder = sandbox.folder("read-only")
    chmod(folder.path, 0o555)
    defer { chmod(folder.path, 0o755) }
    let writable = access(folder.path, W_OK) == 0
    let run = try sandbox.run(app, ["--interactive", "--data-dir", folder.path], input: "quit\n")
    if writable {
      #expect(run.status == 0 && run.errors.isEmpty, "\(run)")
    } else {
      #expect(run.status == 2, "\(run)")
      #expect(run.errors.contains("cannot write in the data folder \(folder.path)"), "\(run)")
    }
    #if os(Linux)
      // A folder not even root can write in, so that the refusal runs in CI too.
      let proc = try sandbox.run(app, ["--interactive", "--data-dir", "/proc"], input: "quit\n")
      #expect(proc.status == 2, "\(proc)")
      #expect(proc.errors.contains("cannot write in the data folder /proc"), "\(proc)")
    #endif
  }

  @Test(arguments: EndToEndTests.interactiveApps)
  func aFolderWhereTheDataFileBelongsIsRefused(app: String) throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let misplaced = data.appendingPathComponent(Self.dataFiles[app]!)
    try FileManager.default.createDirectory(at: misplaced, withIntermediateDirectories: true)
    let run = try sandbox.run(app, ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(run.status == 2, "\(run)")
    #expect(
      run.errors.contains("\(misplaced.path) is a folder where a data file belongs"), "\(run)")
  }

  @Test(arguments: EndToEndTests.interactiveApps)
  func aMissingDataFolderIsCreated(app: String) throws {
    defer { sandbox.remove() }
    let folder = sandbox.base.appendingPathComponent("new/deeper")
    let run = try sandbox.run(app, ["--interactive", "--data-dir", folder.path], input: "quit\n")
    #expect(run.status == 0 && !run.hung, "\(run)")
    #expect(FileManager.default.fileExists(atPath: folder.path))
  }

  @Test(arguments: EndToEndTests.interactiveApps)
  func staleTemporaryFilesOfKilledWritersAreRemoved(app: String) throws {
    defer { sandbox.remove() }
    let data = sandbox.folder("data")
    let stale = data.appendingPathComponent(".dat.nosyncAB12.q1w2e3")
    try Data("half a file".utf8).write(to: stale)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: stale.path)
    let run = try sandbox.run(app, ["--interactive", "--data-dir", data.path], input: "quit\n")
    #expect(run.status == 0, "\(run)")
    #expect(!FileManager.default.fileExists(atPath: stale.path))
  }

  // MARK: - Command lines: one behaviour for every executable

  @Test(arguments: ["counter", "seoul-salam"] + EndToEndTests.interactiveApps)
  func everyExecutableReadsItsCommandLineTheSameWay(app: String) throws {
    defer { sandbox.remove() }
    let help = try sandbox.run(app, ["--help"])
    #expect(help.status == 0 && help.output.contains("usage: \(app)"), "\(help)")
    let bogus = try sandbox.run(app, ["--bogus"])
    #expect(bogus.status == 2, "\(bogus)")
    #expect(bogus.errors.contains("\(app): unknown option '--bogus'"), "\(bogus)")
    #expect(bogus.errors.contains("usage: \(app)"), "\(bogus)")
    let twice = try sandbox.run(app, ["--interactive", "--interactive"])
    #expect(twice.status == 2 && twice.errors.contains("--interactive is given twice"), "\(twice)")
    sandbox.expectNoLitter()
  }

  @Test(arguments: EndToEndTests.interactiveApps)
  func dataDirValuesThatAreNotFoldersAreRefused(app: String) throws {
    defer { sandbox.remove() }
    let cases: [([String], String)] = [
      (["--data-dir", "a", "--data-dir", "b"], "--data-dir is given twice"),
      (["--interactive", "--data-dir", ""], "--data-dir needs a value, not an empty one"),
      (
        ["--data-dir", "--interactive"], "--data-dir needs a value, but '--interactive' follows it"
      ),
      (["--interactive", "--data-dir"], "--data-dir needs a value"),
    ]
    for (arguments, message) in cases {
      let run = try sandbox.run(app, arguments)
      #expect(run.status == 2 && run.errors.contains(message), "\(arguments): \(run)")
    }
    // Nothing was created in the current folder.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: sandbox.base.path).sorted() == ["tmp"])
  }

  @Test func optionsOnlyForInteractiveAndBadNumbersAreRefused() throws {
    defer { sandbox.remove() }
    let cases: [(String, [String], String)] = [
      ("taptap", ["--splash-ms", "10"], "--splash-ms only applies with --interactive"),
      ("taptap", ["--version", "2.0.0"], "--version only applies with --interactive"),
      ("taptap", ["--interactive", "--splash-ms", "abc"], "--splash-ms takes a whole number"),
      ("taptap", ["--interactive", "--splash-ms", "-5"], "not '-5'"),
      ("taptap", ["--interactive", "--version", "two"], "--version takes a version"),
      ("seoul-salam", ["--no-changes"], "--no-changes only applies with --interactive"),
      ("seoul-salam", ["--data", "x.json"], "--data only applies with --interactive"),
      (
        "seoul-salam", ["--interactive", "--changes", "c.json", "--no-changes"],
        "--changes and --no-changes cannot be given together"
      ),
      ("clean-area", ["--policies", "p.json"], "--policies only applies with --interactive"),
      ("cascade-examples", ["--bogus"], "unknown option '--bogus'"),
      ("cascade-examples", ["--verbose", "--verbose"], "--verbose is given twice"),
    ]
    for (app, arguments, message) in cases {
      let run = try sandbox.run(app, arguments)
      #expect(run.status == 2 && run.errors.contains(message), "\(app) \(arguments): \(run)")
    }
    let help = try sandbox.run("cascade-examples", ["--help"])
    #expect(help.status == 0 && help.output.contains("usage: cascade-examples"), "\(help)")
    #expect(!help.output.contains("PASS"))
    sandbox.expectNoLitter()
  }

  // MARK: - Commands for another screen: one line for the user, no developer warning

  /// A scripted session and the lines it must print.
  struct Session: Sendable, CustomTestStringConvertible {
    let app: String
    var options: [String] = []
    let input: String
    let messages: [String]
    var testDescription: String { app }
  }

  static let wrongScreenSessions = [
    Session(
      app: "taptap", options: ["--splash-ms", "0"], input: "tap\nnext\nupdate\nappear\ntap\nquit\n",
      messages: [
        "that command works on the home screen", "that command works on the onboarding screen",
        "no update is asked for",
      ]),
    Session(
      app: "qapple", input: "like 1\nmore\nanswers\nlike 99\nreport x\ndelete\nlike 1\nquit\n",
      messages: [
        "that command works on the answer list; type 'answers' first",
        "like N: N is an answer number from 1 to 10, not '99'",
        "report N: N is an answer number from 1 to 10, not 'x'",
        "delete N: N is an answer number from 1 to 10\n",
      ]),
    Session(
      app: "clean-area", input: "bookmark\nopen 999\nopen 1\nsearch x\nopen 1\nquit\n",
      messages: [
        "that command works on a policy's screen; type 'open ID' first",
        "open ID: ID is one of the policies listed here",
        "that command works on the main screen; type 'home' first",
      ]),
    Session(
      app: "touch-school", input: "pick 999\ntap\nplay\npick 7130027\nplay\nplay\nquit\n",
      messages: [
        "no school has the code '999'", "open the game first ('play')", "pick a school first",
        "the game opens from the main screen",
      ]),
    Session(
      app: "seoul-salam", input: "open 1\nclose\nobserve\nopen 0\nopen 1\nopen 2\nquit\n",
      messages: [
        "no restaurant is listed; type 'observe' first", "no restaurant is open; type 'open N'",
        "open N: N is a result number from 1 to", "a restaurant is open; type 'close' first",
      ]),
  ]

  @Test(arguments: EndToEndTests.wrongScreenSessions)
  func aCommandForAnotherScreenSaysWhatToType(session: Session) throws {
    defer { sandbox.remove() }
    let run = try sandbox.run(
      session.app, ["--interactive"] + session.options, input: session.input)
    try #require(!run.hung && run.status == 0, "\(run)")
    for message in session.messages { #expect(run.output.contains(message), "\(message)\n\(run)") }
    #expect(run.errors.isEmpty, "\(run)")
    sandbox.expectNoLitter()
  }

  // MARK: - Litter

  /// The temporary data folder a session without `--data-dir` makes goes when the session
  /// ends: by `quit`, the end of input or a signal. A bad flag is refused before one is made.
  @Test(arguments: EndToEndTests.interactiveApps)
  func noTemporaryFolderIsLeftByQuitEndOfInputASignalOrABadFlag(app: String) throws {
    defer { sandbox.remove() }
    let quit = try sandbox.run(app, ["--interactive"], input: "quit\n")
    #expect(quit.status == 0, "\(quit)")
    let end = try sandbox.run(app, ["--interactive"], input: "")
    #expect(end.status == 0, "\(end)")
    // Killed while it waits for input, with its folder made (its first line is printed after).
    let live = try LiveProcess(
      Executable(name: app), ["--interactive"], in: sandbox.base,
      temporaryDirectory: sandbox.tmp)
    try #require(live.read(until: "\n") != nil, "\(live.transcript)")
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: sandbox.tmp.path))?.isEmpty == false,
      "no temporary folder was made: the signal below would prove nothing")
    live.send(SIGTERM)
    #expect(live.exitStatus() == 128 + SIGTERM)
    let error = try sandbox.run(
      app, app == "taptap" ? ["--interactive", "--version", "x"] : ["--interactive", "--bogus"])
    #expect(error.status == 2, "\(error)")
    sandbox.expectNoLitter()
  }

  @Test func scenariosPassAndLeaveNothingBehind() throws {
    defer { sandbox.remove() }
    for app in ["counter", "seoul-salam"] + Self.interactiveApps {
      let run = try sandbox.run(app, [], timeout: 60)
      #expect(run.status == 0 && run.output.contains("\(app): scenario passed"), "\(run)")
    }
    let data = sandbox.folder("data")
    let run = try sandbox.run("touch-school", ["--data-dir", data.path], timeout: 60)
    #expect(run.status == 0, "\(run)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: data.path) == [])
    sandbox.expectNoLitter()
  }

  /// Touches per school in a saved ranking.
  func touches(in file: URL) throws -> [String: Int] {
    struct Saved: Decodable { let touches: [String: Int] }
    return try JSONDecoder().decode(Saved.self, from: Data(contentsOf: file)).touches
  }
}

/// A test's own folders: `base` for its data, `base/tmp` as the programs' temporary directory
/// (where nothing may be left).
struct Sandbox {
  let base = FileManager.default.temporaryDirectory.appendingPathComponent(
    "cascade-e2e-\(UUID().uuidString)", isDirectory: true)
  var tmp: URL { base.appendingPathComponent("tmp", isDirectory: true) }

  init() {
    try? FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
  }

  /// A new folder inside `base`.
  func folder(_ name: String) -> URL {
    let folder = base.appendingPathComponent(name, isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Runs `app` with `arguments` in `base`, typing `input`; fails the test if it is not built.
  func run(
    _ app: String, _ arguments: [String], input: String = "", timeout: TimeInterval = 30,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Executable.Run {
    let executable = Executable(name: app)
    try #require(
      executable.isBuilt,
      "\(executable.url.path) is not built: run `swift build` first",
      sourceLocation: sourceLocation)
    return try executable.run(
      arguments, input: input, in: base, temporaryDirectory: tmp, timeout: timeout)
  }

  /// Nothing is left in the programs' temporary directory.
  func expectNoLitter(sourceLocation: SourceLocation = #_sourceLocation) {
    let left = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
    #expect(left == [], "left in the temporary directory", sourceLocation: sourceLocation)
  }

  func remove() { try? FileManager.default.removeItem(at: base) }
}
