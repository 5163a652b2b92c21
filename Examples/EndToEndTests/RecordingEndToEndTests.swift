import Foundation
import Testing

/// `--record FILE` in every example executable, and `cascade-inspect` turning the file into
/// the inspector page: run as a user runs them (`CASCADE_E2E=1`, after `swift build`).
@Suite(
  .serialized, .enabled(if: ProcessInfo.processInfo.environment["CASCADE_E2E"] == "1"),
  .timeLimit(.minutes(10)))
struct RecordingEndToEndTests {
  static let apps = ["counter", "seoul-salam"] + EndToEndTests.interactiveApps
  let sandbox = Sandbox()

  /// The steps of a recording file's session, as JSON objects.
  func steps(in file: URL) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
    let session = try #require((object as? [String: Any])?["session"] as? [String: Any])
    return try #require(session["steps"] as? [[String: Any]])
  }

  @Test(arguments: RecordingEndToEndTests.apps)
  func aScenarioRunWithRecordWritesARecordingTheInspectorOpens(app: String) throws {
    defer { sandbox.remove() }
    let file = sandbox.base.appendingPathComponent("\(app).json")
    let run = try sandbox.run(app, ["--record", file.path], timeout: 60)
    #expect(run.status == 0 && run.output.contains("\(app): scenario passed"), "\(run)")
    #expect(run.output.contains("\(app): recorded "), "\(run)")
    let steps = try steps(in: file)
    #expect(steps.count > 3)
    #expect(steps.first?["origin"] as? String == "user")
    #expect(steps.contains { $0["origin"] as? String == "effect" } || app == "counter")

    let page = sandbox.base.appendingPathComponent("\(app).html")
    let inspect = try sandbox.run("cascade-inspect", [file.path, "-o", page.path])
    #expect(inspect.status == 0 && inspect.output.contains("\(steps.count) steps"), "\(inspect)")
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.hasPrefix("<!doctype html>"))
    sandbox.expectNoLitter()
  }

  /// A command the user types in each interactive app, and a word of the action it sends
  /// (one no app sends by itself at start).
  static let typedCommands = [
    "taptap": ("appear", "onAppear"), "qapple": ("answers", "seeAnswersButtonTapped"),
    "clean-area": ("bookmarks", "tabSelected"), "touch-school": ("pick 7130027", "schoolSelected"),
  ]

  @Test(arguments: EndToEndTests.interactiveApps)
  func anInteractiveSessionIsRecordedWhenTheUserQuits(app: String) throws {
    defer { sandbox.remove() }
    let file = sandbox.base.appendingPathComponent("session.json")
    let (command, action) = try #require(Self.typedCommands[app])
    let run = try sandbox.run(
      app, ["--interactive", "--record", file.path], input: "\(command)\nquit\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.output.contains("\(app): recorded "), "\(run)")
    // The action the typed command sent is a step of the recording, sent by the user.
    let typed = try steps(in: file).filter { ($0["action"] as? String)?.contains(action) == true }
    #expect(typed.first?["origin"] as? String == "user", "\(run)")
  }

  @Test(arguments: RecordingEndToEndTests.apps)
  func aRecordingPathThatCannotBeWrittenIsRefusedBeforeAnythingRuns(app: String) throws {
    defer { sandbox.remove() }
    let aFile = sandbox.base.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: aFile)
    let cases: [([String], String)] = [
      (["--record", sandbox.base.path], "it is a folder; name a file in it"),
      (["--record", "/no/such/folder/session.json"], "the folder /no/such/folder does not exist"),
      (["--record", aFile.path + "/session.json"], "\(aFile.path) is a file, not a folder"),
      (["--record"], "--record needs a value"),
      (["--record", ""], "--record needs a value, not an empty one"),
      (["--record", "a.json", "--record", "b.json"], "--record is given twice"),
    ]
    for (arguments, message) in cases {
      let run = try sandbox.run(app, arguments)
      #expect(run.status == 2, "\(arguments): \(run)")
      #expect(run.errors.contains(message), "\(arguments): \(run)")
      #expect(run.errors.contains("usage: \(app)"), "\(arguments): \(run)")
      #expect(!run.output.contains("scenario"), "nothing ran: \(run)")
    }
  }

  @Test func cascadeInspectRefusesBadArgumentsAndBadFilesWithOneClearError() throws {
    defer { sandbox.remove() }
    let text = sandbox.base.appendingPathComponent("notes.json")
    try Data("hello".utf8).write(to: text)
    let old = sandbox.base.appendingPathComponent("old.json")
    try Data(#"{"actions":[]}"#.utf8).write(to: old)
    let cases: [([String], String)] = [
      ([], "cascade-inspect: which recording? give its path"),
      (["a.json", "b.json"], "one recording at a time: 'a.json' and 'b.json' were both given"),
      (["--bogus"], "cascade-inspect: unknown option '--bogus'"),
      (["a.json", "-o"], "cascade-inspect: -o needs a value"),
      (["a.json", "-o", "x.html", "-o", "y.html"], "-o is given twice"),
      (["missing.json"], "cascade-inspect: no file at \(sandbox.base.path)/missing.json"),
      ([sandbox.base.path], "cannot read \(sandbox.base.path): it is a folder, not a file"),
      ([text.path], "\(text.path) is not a Cascade recording (it is not JSON)"),
      ([old.path], "it was recorded without inspectable: true"),
    ]
    for (arguments, message) in cases {
      let run = try sandbox.run("cascade-inspect", arguments)
      #expect(run.status == 2, "\(arguments): \(run)")
      #expect(run.errors.contains(message), "\(arguments): \(run)")
      #expect(run.output.isEmpty, "\(arguments): \(run)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.base.path).sorted()
    #expect(left == ["notes.json", "old.json", "tmp"], "no page was written")
    let help = try sandbox.run("cascade-inspect", ["--help"])
    #expect(help.status == 0 && help.output.contains("usage: cascade-inspect"), "\(help)")
  }
}
