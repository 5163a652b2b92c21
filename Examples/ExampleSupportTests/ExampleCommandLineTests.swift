import Cascade
import CascadeExampleSupport
import Foundation
import Testing

@Suite struct ExampleCommandLineTests {
  @Test func readsFlagsAndOptionsWithValuesInAnyOrder() throws {
    let commandLine = try ExampleCommandLine(
      parsing: ["--data-dir", "/tmp/x", "--interactive", "--help"],
      flags: ["--interactive", "--no-changes"], options: ["--data-dir", "--data"])
    #expect(commandLine.has("--interactive") && commandLine.has("--help"))
    #expect(!commandLine.has("--no-changes"))
    #expect(commandLine["--data-dir"] == "/tmp/x")
    #expect(commandLine["--data"] == nil)
  }

  @Test func anOptionWithoutItsValueIsAClearError() {
    #expect(throws: ExampleCommandLine.ParseError.missingValue("--data-dir")) {
      try ExampleCommandLine(
        parsing: ["--interactive", "--data-dir"], flags: ["--interactive"],
        options: ["--data-dir"])
    }
    #expect(
      "\(ExampleCommandLine.ParseError.missingValue("--data-dir"))" == "--data-dir needs a value")
  }

  @Test func anUnknownArgumentIsAClearError() {
    #expect(throws: ExampleCommandLine.ParseError.unknownOption("--verbose")) {
      try ExampleCommandLine(parsing: ["--verbose"], flags: ["--interactive"])
    }
    #expect("\(ExampleCommandLine.ParseError.unknownOption("x"))" == "unknown option 'x'")
  }

  typealias ParseError = ExampleCommandLine.ParseError

  func parse(_ arguments: [String]) throws(ParseError) -> ExampleCommandLine {
    try ExampleCommandLine(
      parsing: arguments, flags: ["--interactive", "--no-changes"],
      options: ["--data-dir", "--splash-ms"], interactiveOnly: ["--splash-ms", "--no-changes"])
  }

  @Test func anOptionOrFlagGivenTwiceIsAnError() {
    #expect(throws: ParseError.givenTwice("--data-dir")) {
      try parse(["--data-dir", "a", "--data-dir", "b"])
    }
    #expect(throws: ParseError.givenTwice("--interactive")) {
      try parse(["--interactive", "--interactive"])
    }
    #expect("\(ParseError.givenTwice("--data-dir"))" == "--data-dir is given twice; give it once")
  }

  @Test func anEmptyValueOrAnOptionWhereTheValueBelongsIsAnError() {
    #expect(throws: ParseError.emptyValue("--data-dir")) { try parse(["--data-dir", ""]) }
    #expect(throws: ParseError.optionInsteadOfValue("--data-dir", "--interactive")) {
      try parse(["--data-dir", "--interactive"])
    }
    #expect(
      "\(ParseError.optionInsteadOfValue("--data-dir", "--interactive"))"
        == "--data-dir needs a value, but '--interactive' follows it")
  }

  @Test func interactiveOnlyOptionsNeedInteractive() throws {
    #expect(throws: ParseError.needsInteractive("--splash-ms")) {
      try parse(["--splash-ms", "10"])
    }
    #expect(throws: ParseError.needsInteractive("--no-changes")) { try parse(["--no-changes"]) }
    #expect(try parse(["--splash-ms", "10", "--interactive"])["--splash-ms"] == "10")
    #expect(try parse(["--splash-ms", "10", "--help"]).has("--help"))  // help wins
  }

  @Test func numbersAreWholeAndInRange() throws {
    let range = 0...60_000
    #expect(
      try parse(["--interactive", "--splash-ms", "250"]).integer("--splash-ms", in: range) == 250)
    #expect(try parse(["--interactive"]).integer("--splash-ms", in: range) == nil)
    for bad in ["abc", "-5", "60001", "1.5", "9223372036854775808"] {
      let commandLine = try parse(["--interactive", "--splash-ms", bad])
      #expect(throws: ParseError.badValue("--splash-ms", bad, "a whole number from 0 to 60000")) {
        try commandLine.integer("--splash-ms", in: range)
      }
    }
    #expect(
      "\(ParseError.badValue("--splash-ms", "abc", "a whole number from 0 to 60000"))"
        == "--splash-ms takes a whole number from 0 to 60000, not 'abc'")
  }

  @Test func aScratchDirectoryIsNewEmptyInsideItsParentAndRemovedAfterwards() async throws {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent(
      "example-support-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    let mine = parent.appendingPathComponent("bookmarks.json")
    try Data("[1]".utf8).write(to: mine)
    let used = await withScratchDirectory(named: "scenario", inside: parent.path) { folder in
      let inside = folder.deletingLastPathComponent().standardizedFileURL.path
      #expect(inside == parent.standardizedFileURL.path)
      #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [])
      try? Data("[]".utf8).write(to: folder.appendingPathComponent("bookmarks.json"))
      return folder
    }
    #expect(!FileManager.default.fileExists(atPath: used.path))
    #expect(try Data(contentsOf: mine) == Data("[1]".utf8))  // the user's file is untouched
  }
}

private struct Loader: Reducer {
  struct State: Equatable, Sendable { var loaded = false }
  enum Action: Sendable { case load, loaded }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load: return .run { send in await send(.loaded) }
    case .loaded:
      state.loaded = true
      return .none
    }
  }
}

@MainActor
@Suite struct WaitUntilTests {
  @Test func returnsTrueOnceAnEffectMadeTheConditionHold() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    store.send(.load)
    #expect(await waitUntil(store) { $0.loaded })
    #expect(store.state.loaded)
  }

  @Test func returnsFalseWhenTheConditionNeverHolds() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    #expect(await waitUntil(store, timeout: .milliseconds(50)) { $0.loaded } == false)
  }
}
