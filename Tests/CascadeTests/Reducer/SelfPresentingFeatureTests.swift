import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Issue 50, point 3: a feature can present itself with an action enum written as TCA's case
// studies write it, without `indirect`: `PresentationAction.presented` boxes the child's action.
// A screen that pushes its own kind, or a row that holds its own kind, marks its own case
// `indirect` (the stack's and the rows' wrappers do not box, which would cost an allocation per
// screen or row action; see the migration guide).

/// A sheet that presents a sheet of its own kind.
private struct Sheet: Reducer {
  struct State: Equatable, Sendable {
    var depth = 0
    var ticks = 0
    @PresentationState var destination: Sheet.State?
  }
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Action>)
    case present
    case start
    case tick
  }
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .present:
        state.destination = Sheet.State(depth: state.depth + 1)
      case .start:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      case .tick:
        state.ticks += 1
      case .destination:
        break
      }
      return .none
    }
    .ifLet(\.$destination, action: Action.destination) { Sheet() }
  }
}

/// A screen that pushes screens of its own kind on a stack of its own.
private struct Screen: Reducer {
  struct State: Equatable, Sendable {
    var depth = 0
    var path = StackState<Screen.State>()
  }
  enum Action: Equatable, Sendable {
    indirect case path(StackAction<State, Action>)
    case push
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .push = action { state.path.append(Screen.State(depth: state.depth + 1)) }
      return .none
    }
    .forEach(\.path, action: Action.path) { Screen() }
  }
}

/// A row that holds rows of its own kind.
private struct Row: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var rows: IdentifiedArrayOf<Row.State> = []
  }
  enum Action: Equatable, Sendable {
    indirect case rows(IdentifiedAction<Int, Action>)
    case add(Int)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case let .add(id) = action { state.rows.append(Row.State(id: id)) }
      return .none
    }
    .forEach(\.rows, action: Action.rows) { Row() }
  }
}

/// `action` sent to the sheet `levels` levels down.
private func atLevel(_ levels: Int, _ action: Sheet.Action) -> Sheet.Action {
  levels == 0 ? action : .destination(.presented(atLevel(levels - 1, action)))
}

@MainActor
@Suite(.hangGuard)
struct SelfPresentingFeatureTests {
  let clock = TestClock()

  @Test func aSheetPresentingItselfThreeLevelsDeepInAStore() async {
    let store = Store(initialState: Sheet.State()) {
      Sheet()
    } withDependencies: {
      $0.continuousClock = clock
    }
    for level in 0..<3 { store.send(atLevel(level, .present)) }
    #expect(store.state.destination?.destination?.destination?.depth == 3)
    let deepest = store.send(atLevel(3, .start))
    let middle = store.send(atLevel(2, .start))
    // The second level dismisses its sheet: the third level's effect goes with it.
    store.send(atLevel(2, .destination(.dismiss)))
    #expect(store.state.destination?.destination?.destination == nil)
    await clock.advance(by: .seconds(1))
    await middle.finish()
    await deepest.finish()
    #expect(store.state.destination?.destination?.ticks == 1)
  }

  @Test func aSheetPresentingItselfThreeLevelsDeepInATestStore() async {
    let store = TestStore(initialState: Sheet.State()) {
      Sheet()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(atLevel(0, .present)) { $0.destination = Sheet.State(depth: 1) }
    await store.send(atLevel(1, .present)) {
      $0.destination?.destination = Sheet.State(depth: 2)
    }
    await store.send(atLevel(2, .present)) {
      $0.destination?.destination?.destination = Sheet.State(depth: 3)
    }
    await store.send(atLevel(3, .start))
    await store.send(atLevel(2, .start))
    await store.send(atLevel(2, .destination(.dismiss))) {
      $0.destination?.destination?.destination = nil
    }
    await clock.advance(by: .seconds(1))
    await store.receive(atLevel(2, .tick)) { $0.destination?.destination?.ticks = 1 }
    await store.finish()
  }

  @Test func aScreenPushingItselfThreeLevelsDeepInAStore() {
    let store = Store(initialState: Screen.State()) { Screen() }
    store.send(.push)
    let first = store.state.path.ids[0]
    store.send(.path(.element(id: first, action: .push)))
    let second = store.state.path[id: first]!.path.ids[0]
    store.send(.path(.element(id: first, action: .path(.element(id: second, action: .push)))))
    #expect(store.state.path[id: first]?.path[id: second]?.path.first?.depth == 3)
  }

  @Test func aScreenPushingItselfThreeLevelsDeepInATestStore() async {
    let store = TestStore(initialState: Screen.State()) { Screen() }
    await store.send(.push) { $0.path[id: 0] = Screen.State(depth: 1) }
    await store.send(.path(.element(id: 0, action: .push))) {
      $0.path[id: 0]?.path[id: 1] = Screen.State(depth: 2)
    }
    await store.send(.path(.element(id: 0, action: .path(.element(id: 1, action: .push))))) {
      $0.path[id: 0]?.path[id: 1]?.path[id: 2] = Screen.State(depth: 3)
    }
  }

  @Test func aRowHoldingRowsOfItsOwnKindThreeLevelsDeep() async {
    let nested = Row.Action.rows(.element(id: 1, action: .rows(.element(id: 2, action: .add(3)))))
    let store = Store(initialState: Row.State(id: 0)) { Row() }
    store.send(.add(1))
    store.send(.rows(.element(id: 1, action: .add(2))))
    store.send(nested)
    #expect(store.state.rows[id: 1]?.rows[id: 2]?.rows.ids == [3])

    let testStore = TestStore(initialState: Row.State(id: 0)) { Row() }
    await testStore.send(.add(1)) { $0.rows.append(Row.State(id: 1)) }
    await testStore.send(.rows(.element(id: 1, action: .add(2)))) {
      $0.rows[id: 1]?.rows.append(Row.State(id: 2))
    }
    await testStore.send(nested) { $0.rows[id: 1]?.rows[id: 2]?.rows.append(Row.State(id: 3)) }
  }

  /// Case paths read through boxed payloads: the child's action from the `indirect`
  /// `presented` case, and each wrapper's case from a feature's own `indirect` case.
  @Test func casePathsExtractThroughTheBoxedCases() {
    let sheet = CasePath(Sheet.Action.destination)
    #expect(sheet.extract(from: atLevel(1, .tick)) == .presented(.tick))
    let presented = CasePath(PresentationAction<Sheet.Action>.presented)
    #expect(presented.extract(from: .presented(.tick)) == .tick)
    #expect(presented.extract(from: .dismiss) == nil)
    let element = CasePath(StackAction<Screen.State, Screen.Action>.element)
    #expect(element.extract(from: .element(id: 4, action: .push))?.1 == .push)
    #expect(element.extract(from: .popFrom(id: 4)) == nil)
    let row = CasePath(IdentifiedAction<Int, Row.Action>.element)
    #expect(row.extract(from: .element(id: 2, action: .add(9)))?.0 == 2)
    let path = CasePath(Screen.Action.path)
    #expect(path.extract(from: .path(.popFrom(id: 1))) == .popFrom(id: 1))
    #expect(path.extract(from: .push) == nil)
    let rows = CasePath(Row.Action.rows)
    #expect(
      rows.extract(from: .rows(.element(id: 5, action: .add(6))))
        == .element(id: 5, action: .add(6)))
    #expect(rows.extract(from: .add(1)) == nil)
  }
}
