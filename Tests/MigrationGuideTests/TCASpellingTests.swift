import Cascade
import CascadeTesting
import Foundation
import Testing

/// A child that counts, presented with TCA 1.x's `@Presents` spelling.
private struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

private struct Host: Reducer {
  struct State: Equatable {
    @Presents var destination: Counter.State?
  }
  enum Action: Equatable {
    case destination(PresentationAction<Counter.Action>)
    case open
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .open = action { state.destination = Counter.State() }
      return .none
    }
    .ifLet(\.$destination, action: Action.destination) { Counter() }
  }
}

/// What a TCA user writes out of habit: the spellings Cascade accepts as they are, and the
/// ones that get one diagnostic at the user's line saying what to write.
@MainActor
@Suite struct TCASpellingTests {
  @Test func presentsIsThePresentationPropertyWrapperUnderAStore() {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.open)
    store.send(.destination(.presented(.increment)))
    #expect(store.state.destination == Counter.State(count: 1))
    store.send(.destination(.dismiss))
    #expect(store.state.destination == nil)
  }

  @Test func presentsIsThePresentationPropertyWrapperUnderATestStore() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.open) { $0.destination = Counter.State() }
    await store.send(.destination(.presented(.increment))) { $0.destination?.count = 1 }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  /// A file of TCA 1.x `action: \.case` habits, type-checked against the Cascade module this
  /// test was built with: each habit gets exactly one error, at its own line, naming the case
  /// to write; nothing else in the file is reported.
  @Test func caseKeyPathHabitsGetOneDiagnosticEachThatSaysWhatToWrite() throws {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let modules = try #require(
      [folder.appending(path: "Modules"), folder].first {
        FileManager.default.fileExists(atPath: $0.appending(path: "Cascade.swiftmodule").path)
      },
      "Cascade.swiftmodule was not built next to the tests (looked in \(folder.path))")
    let scratch = FileManager.default.temporaryDirectory
      .appending(path: "cascade-spellings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let source = scratch.appending(path: "Habits.swift")
    try habits.write(to: source, atomically: true, encoding: .utf8)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, source.path,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus != 0)

    let diagnostics = output.split(separator: "\n").filter { $0.contains(": error: ") }
    let lines = habits.split(separator: "\n", omittingEmptySubsequences: false)
    let expected = lines.indices.compactMap { index -> (line: Int, case: String)? in
      guard let marker = lines[index].range(of: "// habit: ") else { return nil }
      return (index + 1, String(lines[index][marker.upperBound...]))
    }
    #expect(expected.count == 7)
    #expect(diagnostics.count == expected.count, "\(output)")
    for (line, name) in expected {
      let atLine = diagnostics.filter { $0.contains("Habits.swift:\(line):") }
      #expect(atLine.count == 1, "line \(line): \(output)")
      #expect(
        atLine.first?.contains("is unavailable: Cascade takes the action's case itself") == true,
        "\(output)")
      #expect(atLine.first?.contains("write 'action: Action.\(name)'") == true, "\(output)")
    }
  }
}

/// TCA 1.x habits, each marked with the case its message names.
private let habits = """
  import Cascade

  struct Editor: Reducer {
    struct State: Equatable { var text = "" }
    enum Action: Equatable { case typed(String) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
  }

  struct Row: Reducer {
    struct State: Equatable, Identifiable { var id: Int }
    enum Action: Equatable { case tapped }
    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
  }

  struct Parent: Reducer {
    struct State {
      var editor = Editor.State()
      var child: Editor.State?
      @Presents var destination: Editor.State?
      var path = StackState<Editor.State>()
      var rows: IdentifiedArrayOf<Row.State> = []
    }
    enum Action {
      case editor(Editor.Action)
      case child(Editor.Action)
      case destination(PresentationAction<Editor.Action>)
      case path(StackAction<Editor.State, Editor.Action>)
      case rows(IdentifiedAction<Int, Row.Action>)
    }
    var body: some Reducer<State, Action> {
      Scope(state: \\.editor, action: \\.editor) { Editor() }  // habit: editor
      EmptyReducer().ifLet(\\.child, action: \\.child) { Editor() }  // habit: child
      EmptyReducer().ifLet(\\.$destination, action: \\.destination) { Editor() }  // habit: destination
      EmptyReducer().ifLet(\\.$destination, action: \\.destination)  // habit: destination
      EmptyReducer().forEach(\\.path, action: \\.path) { Editor() }  // habit: path
      EmptyReducer().forEach(\\.path, action: \\.path)  // habit: path
      EmptyReducer().forEach(\\.rows, action: \\.rows) { Row() }  // habit: rows
    }
  }
  """
