import CascadeTesting
import Foundation
import Testing

@testable import Cascade

/// A feature whose first action sends its second synchronously (`.send`).
private struct Relay: Reducer {
  struct State: Equatable, Sendable {
    var started = false
    var finished = false
  }
  enum Action: Equatable, Codable, Sendable {
    case start
    case finish
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.started = true
      return .send(.finish)
    case .finish:
      state.finished = true
      return .none
    }
  }
}

/// A feature with a list, text and a set, for sessions of many steps.
private struct Notebook: Reducer {
  struct State: Equatable, Sendable {
    var title = "untitled"
    var numbers: [Int] = []
    var tags: Set<String> = []
  }
  enum Action: Equatable, Sendable {
    case append(Int)
    case remove(at: Int)
    case rename(String)
    case tag(String)
    case clear
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .append(let number): state.numbers.append(number)
    case .remove(let index):
      if state.numbers.indices.contains(index) { state.numbers.remove(at: index) }
    case .rename(let title): state.title = title
    case .tag(let tag): if state.tags.insert(tag).inserted == false { state.tags.remove(tag) }
    case .clear: state.numbers.removeAll()
    }
    return .none
  }
}

private func longestCommonSubsequence(_ a: [String], _ b: [String]) -> Int {
  var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in stride(from: a.count - 1, through: 0, by: -1) {
    for j in stride(from: b.count - 1, through: 0, by: -1) {
      table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
    }
  }
  return table[0][0]
}

@MainActor
@Suite(.hangGuard)
struct RecordedSessionTests {
  /// Records a scoreboard session: open a player screen, tap (changes the shared score), take
  /// a bonus (an effect changes the score and sends `bonusApplied`), reset.
  private func scoreboardSession() async throws -> (
    RecordedSession, Recording<Scoreboard.State, Scoreboard.Action>
  ) {
    let recorder = Recorder<Scoreboard.State, Scoreboard.Action>(
      keepingStates: true, inspectable: true)
    let store = Store(initialState: Scoreboard.State(score: Shared(value: 0))) {
      Scoreboard().record(into: recorder)
    }
    store.send(.openPlayer)
    let id = try #require(store.path.ids.last)
    store.send(.path(.element(id: id, action: .tapped)))
    await store.send(.path(.element(id: id, action: .bonusTapped))).finish()
    store.send(.resetTapped)
    let recording = recorder.recording
    return (try #require(recording.session), recording)
  }

  @Test func eachStepKnowsItsCasePathScreenAndWhetherTheUserOrAnEffectSentIt() async throws {
    let (session, _) = try await scoreboardSession()
    #expect(
      session.steps.map(\.casePath) == [
        "openPlayer", "path.element.tapped", "path.element.bonusTapped",
        "path.element.bonusApplied", "resetTapped",
      ])
    #expect(session.steps.map(\.origin) == [.user, .user, .user, .effect, .user])
    #expect(session.steps.map(\.screen) == ["root", "path", "path", "path", "root"])
    #expect(session.stateType == "Scoreboard.State")
    #expect(session.steps[1].action.hasPrefix(".path(.element(id: "))
  }

  @Test func anActionSentSynchronouslyByAnEffectIsTheEffects() throws {
    let recorder = Recorder<Relay.State, Relay.Action>(inspectable: true)
    let store = Store(initialState: Relay.State()) { Relay().record(into: recorder) }
    store.send(.start)
    store.send(.start)
    let session = try #require(recorder.recording.session)
    #expect(session.steps.map(\.origin) == [.user, .effect, .user, .effect])
    #expect(session.steps.map(\.casePath) == ["start", "finish", "start", "finish"])
  }

  @Test func aTestStoreSessionRecordsTheTestsSendsAsUserAndReceivedActionsAsEffects() async {
    let recorder = Recorder<Relay.State, Relay.Action>(inspectable: true)
    let store = TestStore(initialState: Relay.State()) { Relay().record(into: recorder) }
    await store.send(.start) { $0.started = true }
    await store.receive(.finish) { $0.finished = true }
    #expect(recorder.recording.session?.steps.map(\.origin) == [.user, .effect])
  }

  @Test func everyStepsStateIsRebuiltExactlyFromTheLinesItChanged() throws {
    let recorder = Recorder<Notebook.State, Notebook.Action>(keepingStates: true, inspectable: true)
    let store = Store(initialState: Notebook.State()) { Notebook().record(into: recorder) }
    var generator = SeededGenerator(seed: 25)
    for _ in 0..<300 {
      let action: Notebook.Action =
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: .append(Int.random(in: 0..<50, using: &generator))
        case 1: .remove(at: Int.random(in: 0..<40, using: &generator))
        case 2: .rename(["메모", "note 📝", "<b>", ""].randomElement(using: &generator)!)
        case 3: .tag(["a", "b", "c"].randomElement(using: &generator)!)
        default: .clear
        }
      store.send(action)
    }
    let recording = recorder.recording
    let session = try #require(recording.session)
    #expect(session.initialState == stateDump(Notebook.State()).lines)
    for (index, entry) in recording.entries.enumerated() {
      let state = try #require(entry.state)
      #expect(session.state(after: index) == stateDump(state).lines, "step \(index + 1)")
    }
  }

  @Test func shortestLineChangesRebuildTheNewLines() {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<500 {
      let old = (0..<Int.random(in: 0..<30, using: &generator)).map { _ in
        String(Int.random(in: 0..<6, using: &generator))
      }
      let new = (0..<Int.random(in: 0..<30, using: &generator)).map { _ in
        String(Int.random(in: 0..<6, using: &generator))
      }
      var lines = old
      RecordedSession.apply(lineChanges(old, new).map(\.hunk), to: &lines)
      #expect(lines == new)
      let changed = lineChanges(old, new).reduce(0) {
        $0 + $1.hunk.removed + $1.hunk.inserted.count
      }
      #expect(changed == old.count + new.count - 2 * longestCommonSubsequence(old, new))
    }
  }

  @Test func oneChangeInATenThousandLineStateIsOneSmallHunk() {
    let old = (0..<10_000).map { "  [\($0)]: \($0)" }
    var new = old
    new[5_000] = "  [5000]: changed"
    new.insert("  [10000]: 10000", at: 10_000)
    let changes = lineChanges(old, new)
    #expect(
      changes.map(\.hunk) == [
        .init(start: 5_000, removed: 1, inserted: ["  [5000]: changed"]),
        .init(start: 10_000, removed: 0, inserted: ["  [10000]: 10000"]),
      ])
  }

  @Test func sharedChangesAreListedBesideTheStepThatMadeThem() async throws {
    let (session, _) = try await scoreboardSession()
    #expect(session.steps[0].shared == [])
    #expect(session.steps[1].shared.first == "score")
    #expect(session.steps[1].shared.count == 2)
    #expect(session.steps[1].shared[1].hasPrefix("path[#"))
    #expect(session.steps[1].shared[1].hasSuffix("].score"))
    #expect(session.steps[2].shared == [], "the bonus's effect has not changed it yet")
    #expect(session.steps[3].shared.first == "score")
    #expect(session.steps[1].fields.contains("score"))
    #expect(session.steps[3].fields.contains { $0.hasSuffix(".bonuses") })
  }

  @Test func aStepThatChangesNothingHasNoChanges() throws {
    let recorder = Recorder<Relay.State, Relay.Action>(inspectable: true)
    let store = Store(initialState: Relay.State()) { Relay().record(into: recorder) }
    store.send(.finish)
    store.send(.finish)
    let session = try #require(recorder.recording.session)
    #expect(session.steps[0].fields == ["finished"])
    #expect(session.steps[1].changes == [])
    #expect(session.steps[1].fields == [])
  }

  @Test func aRecorderThatIsNotInspectableKeepsNoSession() {
    let recorder = Recorder<Relay.State, Relay.Action>()
    let store = Store(initialState: Relay.State()) { Relay().record(into: recorder) }
    store.send(.start)
    #expect(recorder.recording.session == nil)
    #expect(recorder.recording.actions == [.start, .finish])
    #expect(throws: RecordingFileError.notInspectable) {
      try recorder.recording.write(to: URL(fileURLWithPath: "/tmp/never-written.json"))
    }
  }

  @Test func aNilRecorderRecordsNothingAndChangesNothing() {
    let store = Store(initialState: Relay.State()) { Relay().record(into: nil) }
    store.send(.start)
    #expect(store.state == Relay.State(started: true, finished: true))
  }

  @Test func aWrittenRecordingReadsBackWithItsSessionAndItsActions() throws {
    let recorder = Recorder<Relay.State, Relay.Action>(inspectable: true)
    let store = Store(initialState: Relay.State()) { Relay().record(into: recorder) }
    store.send(.start)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "recorded-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("session.json")
    try recorder.recording.write(to: file)

    let session = try RecordedSession(contentsOf: file)
    #expect(session == recorder.recording.session)
    let decoded = try JSONDecoder().decode(
      Recording<Relay.State, Relay.Action>.self, from: Data(contentsOf: file))
    #expect(decoded.actions == [.start, .finish])
    #expect(decoded.session == session)
    #expect(decoded.replay(from: Relay.State()) { Relay() } == store.state)
  }

  @Test func aRecordingSavedBeforeSessionsExistedStillDecodes() throws {
    let old = Data(#"{"actions":[{"start":{}},{"finish":{}}]}"#.utf8)
    let decoded = try JSONDecoder().decode(Recording<Relay.State, Relay.Action>.self, from: old)
    #expect(decoded.actions == [.start, .finish])
    #expect(decoded.session == nil)
  }

  @Test func readingABadRecordingSaysWhichFileAndWhatIsWrong() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bad-recordings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func error(reading url: URL) -> RecordingFileError? {
      do {
        _ = try RecordedSession(contentsOf: url)
        return nil
      } catch { return error }
    }
    let missing = folder.appendingPathComponent("missing.json")
    #expect(error(reading: missing) == .missing(path: missing.path))
    #expect(error(reading: missing)?.description.contains("--record") == true)

    #expect(
      error(reading: folder) == .unreadable(path: folder.path, reason: "it is a folder, not a file")
    )

    let text = folder.appendingPathComponent("notes.json")
    try Data("hello".utf8).write(to: text)
    #expect(error(reading: text) == .invalid(path: text.path, reason: "it is not JSON"))

    let old = folder.appendingPathComponent("old.json")
    try Data(#"{"actions":[]}"#.utf8).write(to: old)
    guard case .invalid(_, let reason)? = error(reading: old) else {
      Issue.record("a recording without a session is refused")
      return
    }
    #expect(reason.contains("inspectable"))

    let broken = folder.appendingPathComponent("broken.json")
    try Data(#"{"session":{"stateType":1}}"#.utf8).write(to: broken)
    guard case .invalid(_, let detail)? = error(reading: broken) else {
      Issue.record("a session of the wrong shape is refused")
      return
    }
    #expect(detail.contains("session"))
  }
}

extension String {
  fileprivate var lines: [String] {
    split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}
