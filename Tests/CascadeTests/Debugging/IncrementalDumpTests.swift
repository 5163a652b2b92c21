import Testing

@testable import Cascade

// Issue 37 (S7): a recorder dumps only what an action changed, and its lines are exactly
// `stateDump`'s.

private struct Row: Equatable, Identifiable {
  var id: Int
  var title: String
  var tags: [String] = []
}

private struct Opaque {  // not Equatable: always dumped again
  var value = 0
}

private enum Mode: Equatable {
  case idle
  case editing(Row)
}

private struct Screen {
  var rows: IdentifiedArrayOf<Row> = []
  var numbers: [Int] = []
  var title = "Groceries"
  var selected: Row?
  var mode = Mode.idle
  var opaque = Opaque()
  var empty: [Row] = []
}

/// Takes the dump's next step of `state` and checks it against `stateDump`: the step's changes,
/// applied to the dump before, give `stateDump`'s lines, and the shared values are where
/// `stateDump` puts them.
private func expectStep<State>(
  _ dump: inout _IncrementalDump, of state: State, _ step: String,
  sourceLocation: SourceLocation
) {
  var shared: [SharedBlock] = []
  let expected = stateDumpLines(state, maxElements: nil, shared: &shared)
  var previous = dump.lines
  switch dump.step(of: state) {
  case let .changes(changes, blocks, _)?:
    RecordedSession.apply(changes.map(\.hunk), to: &previous)
    #expect(previous == expected, "\(step)", sourceLocation: sourceLocation)
    #expect(blocks == shared, "\(step)", sourceLocation: sourceLocation)
  case let .whole(lines, blocks)?:
    #expect(lines == expected, "\(step)", sourceLocation: sourceLocation)
    #expect(blocks == shared, "\(step)", sourceLocation: sourceLocation)
  case nil:
    Issue.record("not dumped piece by piece", sourceLocation: sourceLocation)
  }
  #expect(dump.lines == expected, "\(step)", sourceLocation: sourceLocation)
}

// On the main actor, where a store runs its reducers: a recorder reads the send loop's batch
// origin, which only the main actor writes.
@MainActor @Suite struct IncrementalDumpTests {
  @Test func theLinesAreStateDumpsAfterEveryKindOfChange() {
    var state = Screen()
    state.rows = IdentifiedArray(uniqueElements: (0..<50).map { Row(id: $0, title: "row \($0)") })
    state.numbers = Array(0..<20)
    var dump = _IncrementalDump()
    func check(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
      expectStep(&dump, of: state, step, sourceLocation: sourceLocation)
    }
    check("first")
    check("nothing changed")
    state.rows[id: 7]?.title = "changed"
    check("one row changed")
    state.rows[id: 3]?.tags.append("urgent")
    state.rows[id: 40]?.title = "another"
    check("two rows changed, one grew a line")
    state.rows.append(Row(id: 99, title: "new"))
    check("a row added")
    state.rows.remove(id: 0)
    check("a row removed")
    state.rows.swapAt(0, 1)
    check("two rows swapped")
    state.numbers[5] = 500
    check("an element of a plain array")
    state.numbers.removeAll()
    check("an array emptied")
    state.numbers = [1]
    check("an empty array filled")
    state.title = "Errands"
    state.selected = state.rows[id: 7]
    check("a string and an optional")
    state.mode = .editing(Row(id: 1, title: "x"))
    check("an enum")
    state.opaque.value = 3
    check("a field that is not Equatable")
    state.rows = []
    check("every row gone")
  }

  /// With `trustingStamps`, the dump is a recorder's: collections log their in-place changes
  /// while it lives, and it compares only the elements the log names.
  @Test(arguments: [1, 2, 3, 4, 5], [false, true])
  func randomChangesAlwaysGiveStateDumpsLines(seed: UInt64, trustingStamps: Bool) {
    struct Item: Equatable, Identifiable {
      var id: Int
      var tags: [String]
      @Shared var score: Int
    }
    struct Mixed {
      var rows: IdentifiedArrayOf<Row> = []
      var items: [Item] = []
      var stack = StackState<Row>()
      var counter = 0
    }
    var random = SeededGenerator(seed: seed)
    let scores = (0..<4).map { Shared(value: $0) }
    var state = Mixed()
    var nextID = 0
    var dump =
      trustingStamps
      ? _IncrementalDump(trustingStampsAfter: _nextStructureStamp()) : _IncrementalDump()
    var lines: [String] = []
    for step in 0..<300 {
      // What a recorder does before each action: the state's collections log their elements'
      // changes (a collection assigned whole does not, until then).
      if trustingStamps {
        state.rows._startLoggingElementChanges()
        state.stack._startLoggingElementChanges()
      }
      switch random.next() % 10 {
      case 0:
        if random.next() % 4 == 0 {
          // A new value assigned whole, changed in place before the dump looks.
          state.rows = IdentifiedArray(uniqueElements: state.rows.elements)
          if let id = state.rows.ids.first { state.rows[id: id]?.title += "?" }
        }
        state.rows.append(Row(id: nextID, title: "r\(nextID)"))
        nextID += 1
      case 1:
        if !state.rows.isEmpty {
          state.rows.remove(at: Int(random.next() % UInt64(state.rows.count)))
        }
      case 2, 3:
        // Now and then every row, more changes than a collection's log keeps.
        let changes = random.next() % 8 == 0 ? state.rows.count : Int(random.next() % 3)
        for _ in 0..<changes where !state.rows.isEmpty {
          let index = Int(random.next() % UInt64(state.rows.count))
          if random.next() % 2 == 0 {
            state.rows[index].tags.append("t")
          } else if !state.rows[index].tags.isEmpty {
            state.rows[index].tags.removeLast()
          } else {
            state.rows[index].title += "!"
          }
        }
      case 4:
        state.items.append(
          Item(id: nextID, tags: [], score: scores[Int(random.next() % 4)]))
        nextID += 1
      case 5:
        scores[Int(random.next() % 4)].withLock { $0 += 1 }
      case 6:
        if !state.items.isEmpty {
          state.items[Int(random.next() % UInt64(state.items.count))].tags.append("x")
        }
      case 7:
        state.stack.append(Row(id: nextID, title: "s"))
        nextID += 1
      case 8:
        if random.next() % 2 == 0, !state.stack.isEmpty {
          state.stack.removeLast()
        } else if let id = state.stack.ids.last {
          state.stack[id: id]?.tags.append("y")
        }
      default:
        state.counter += 1
      }
      expectInvariants(state.rows, "seed \(seed) step \(step)")
      expectInvariants(state.stack, "seed \(seed) step \(step)")
      var shared: [SharedBlock] = []
      let expected = stateDumpLines(state, maxElements: nil, shared: &shared)
      switch dump.step(of: state) {
      case let .changes(changes, blocks, _)?:
        RecordedSession.apply(changes.map(\.hunk), to: &lines)
        #expect(blocks == shared, "seed \(seed) step \(step)")
      case let .whole(whole, _)?:
        lines = whole
      case nil:
        Issue.record("not dumped piece by piece")
      }
      #expect(lines == expected, "seed \(seed) step \(step)")
      if lines != expected { break }
    }
  }

  @Test func aCollectionChangedBeforeTheDumpTrustedStampsIsComparedInFull() {
    // Changed before its log was on: the copy kept its original's stamp with other contents.
    let original = IdentifiedArray(uniqueElements: (0..<5).map { Row(id: $0, title: "\($0)") })
    var changed = original
    changed[id: 2]?.title = "changed"
    var dump = _IncrementalDump(trustingStampsAfter: _nextStructureStamp())
    var state = Screen()
    // As a recorder does before each action: the collection logs from then on.
    state.rows = original
    state.rows._startLoggingElementChanges()
    expectStep(&dump, of: state, "the original", sourceLocation: #_sourceLocation)
    state.rows = changed
    state.rows._startLoggingElementChanges()
    expectStep(&dump, of: state, "the copy changed before", sourceLocation: #_sourceLocation)
    state.rows[id: 4]?.title = "logged"
    expectStep(&dump, of: state, "a logged change", sourceLocation: #_sourceLocation)
    state.rows[id: 0]?.tags = ["a", "b"]
    state.rows[id: 4]?.tags = ["c"]
    expectStep(&dump, of: state, "two rows grew lines", sourceLocation: #_sourceLocation)
    state.rows[id: 1]?.tags = ["d"]
    state.rows[id: 0]?.tags = []
    expectStep(&dump, of: state, "one shrank, one grew", sourceLocation: #_sourceLocation)
  }

  @Test func lineOffsetsSumTheCountsBeforeAnyElement() {
    var counts = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    var offsets = _LineOffsets(counts)
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
      for position in 0...counts.count {
        #expect(
          offsets.lines(before: position) == counts.prefix(position).reduce(0, +),
          "before \(position)", sourceLocation: sourceLocation)
      }
      #expect(offsets.total == counts.reduce(0, +), sourceLocation: sourceLocation)
    }
    check()
    for (position, delta) in [(0, 2), (10, -4), (5, 1), (7, -6), (3, 0)] {
      counts[position] += delta
      offsets.add(delta, at: position)
      check()
    }
  }

  @Test func aSharedValueIsDumpedAgainAtEveryStepAndFoundWhereItIs() {
    struct WithShared {
      var rows: [Int] = [1, 2, 3]
      @Shared var count: Int
      var title = "a"
    }
    let count = Shared(value: 1)
    var state = WithShared(count: count)
    var dump = _IncrementalDump()
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
      var shared: [SharedBlock] = []
      let expected = stateDumpLines(state, maxElements: nil, shared: &shared)
      switch dump.step(of: state) {
      case let .changes(_, blocks, _)?, let .whole(_, blocks)?:
        #expect(blocks == shared, sourceLocation: sourceLocation)
      case nil:
        Issue.record("not dumped piece by piece", sourceLocation: sourceLocation)
      }
      #expect(dump.lines == expected, sourceLocation: sourceLocation)
    }
    check()
    count.withLock { $0 = 2 }  // the field is the same reference: its value changed
    check()
    state.rows.append(4)
    check()
    var none = _IncrementalDump()
    #expect(none.step(of: 5) == nil)
  }

  @Test func aStackOfScreensHoldingASharedValueIsDumpedScreenByScreen() {
    struct Game: Equatable {
      var taps = 0
      @Shared var total: Int
    }
    enum Path: Equatable {
      case game(Game)
      case about
    }
    struct App {
      var path = StackState<Path>()
      @Shared var total: Int
      var log: [String] = []
    }
    let total = Shared(value: 0)
    var state = App(total: total)
    var dump = _IncrementalDump()
    func check(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
      expectStep(&dump, of: state, step, sourceLocation: sourceLocation)
    }
    check("empty stack")
    state.path.append(.about)
    state.path.append(.game(Game(total: total)))
    check("two screens pushed")
    state.path[id: state.path.ids[1], case: Path.game]?.taps += 1
    check("a screen changed")
    total.withLock { $0 += 5 }
    check("the shared value changed, no screen did")
    state.log.append("x")
    check("another field")
    state.path.removeLast()
    check("a screen popped")
  }

  @Test func actionTextsAreWrittenWhenTheRecordingIsReadAndKept() {
    enum Action: Equatable {
      case tap(Int)
      case reset
    }
    let recorder = Recorder<Screen, Action>(inspectable: true)
    var state = Screen()
    let reduce = Reduce<Screen, Action> { state, action in
      if case let .tap(count) = action { state.numbers.append(count) }
      return .none
    }
    .record(into: recorder)._reduceFunction()
    _ = reduce(&state, .tap(1))
    _ = reduce(&state, .reset)
    #expect(recorder.recording.session?.steps.map(\.action) == [".tap(1)", ".reset"])
    _ = reduce(&state, .tap(2))
    let steps = recorder.recording.session?.steps ?? []
    #expect(steps.map(\.action) == [".tap(1)", ".reset", ".tap(2)"])
    #expect(steps.map(\.casePath) == ["tap", "reset", "tap"])
    #expect(steps.map(\.fields) == [["numbers"], [], ["numbers[1]"]])
  }

  @Test func aRecordedSessionRebuildsEveryStepExactly() {
    let recorder = Recorder<Screen, Int>(inspectable: true)
    var state = Screen()
    state.rows = IdentifiedArray(uniqueElements: (0..<30).map { Row(id: $0, title: "row \($0)") })
    let reduce = Reduce<Screen, Int> { state, index in
      switch index % 4 {
      case 0: state.rows[id: index % 30]?.title += "!"
      case 1: state.rows.append(Row(id: 100 + index, title: "added"))
      case 2: state.title = "step \(index)"
      default: state.numbers.append(index)
      }
      return .none
    }
    .record(into: recorder)._reduceFunction()
    var states: [[String]] = []
    for index in 0..<40 {
      _ = reduce(&state, index)
      states.append(
        stateDump(state).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }
    let session = recorder.recording.session!
    // The same steps as a session built from whole dumps would list them.
    var whole = SessionBuilder(stateType: "Screen", actionType: "Int")
    var replayed = Screen()
    replayed.rows = IdentifiedArray(
      uniqueElements: (0..<30).map { Row(id: $0, title: "row \($0)") })
    var shared: [SharedBlock] = []
    whole.setInitialState(
      stateDumpLines(replayed, maxElements: nil, shared: &shared), shared: shared)
    for index in 0..<40 {
      #expect(session.state(after: index) == states[index], "step \(index)")
      _ = reduce(&replayed, index)
      whole.append(
        action: ActionText(index), origin: .user,
        lines: stateDumpLines(replayed, maxElements: nil, shared: &shared), shared: shared)
      #expect(session.steps[index].fields == whole.session.steps[index].fields, "step \(index)")
    }
    #expect(session.steps[0].fields == ["rows[0].title"])
    #expect(session.steps[1].fields == ["rows[30]"])
    #expect(session.steps[2].fields == ["title"])
  }

  @Test func aRecorderTurnsOnTheLogOfItsOwnStatesCollectionsOnly() {
    let recorder = Recorder<Screen, Int>(inspectable: true)
    var state = Screen()
    state.rows = IdentifiedArray(uniqueElements: (0..<5).map { Row(id: $0, title: "row \($0)") })
    let elsewhere = state.rows
    let reduce = Reduce<Screen, Int> { state, index in
      // Now and then a new collection assigned whole (its log off), then changed in place.
      if index % 3 == 2 { state.rows = IdentifiedArray(uniqueElements: state.rows.elements) }
      state.rows[id: index % 5]?.title += "!"
      return .none
    }
    .record(into: recorder)._reduceFunction()
    var states: [[String]] = []
    for index in 0..<12 {
      _ = reduce(&state, index)
      states.append(
        stateDump(state).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
      #expect(state.rows._logsElementChanges == (index % 3 != 2), "step \(index)")
    }
    let session = recorder.recording.session!
    for index in 0..<12 { #expect(session.state(after: index) == states[index], "step \(index)") }
    // A copy taken before the recorder saw the state is another value: its log stays off.
    #expect(!elsewhere._logsElementChanges)
  }
}
