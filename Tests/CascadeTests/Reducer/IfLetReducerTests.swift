import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's IfLetReducerTests: 4 behaviours ported, 2 deliberately different (see
// "Navigation: differences from TCA" in the migration guide): an alert kept in a plain
// optional with a reducer-less `ifLet` (Cascade presents alerts with `PresentationState`
// only), and the warning's exact text.

/// A row with an optional ticker child.
private struct Row: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var child: Ticker.State?
  }
  enum Action: Equatable, Sendable {
    case child(Ticker.Action)
    case show(Int)
    case clear
    case replace(Int)
    case bump
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .show(id): state.child = Ticker.State(id: id)
      case .clear: state.child = nil
      case let .replace(id): state.child = Ticker.State(id: id)
      case .bump:
        // Read the child, change it, write it back: the same child.
        var child = state.child!
        child.ticks += 10
        state.child = child
      case .child: break
      }
      return .none
    }
    .ifLet(\.child, action: Action.child) { Ticker() }
  }
}

/// Two rows built from one feature.
private struct Pair: Reducer {
  struct State: Equatable, Sendable {
    var left = Row.State(id: 1)
    var right = Row.State(id: 2)
  }
  enum Action: Equatable, Sendable {
    case left(Row.Action)
    case right(Row.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: Action.left) { Row() }
    Scope(state: \.right, action: Action.right) { Row() }
  }
}

@MainActor
@Suite(.hangGuard)
struct IfLetReducerTests {
  let clock = TestClock()

  private func row() -> TestStore<Row.State, Row.Action> {
    TestStore(initialState: Row.State(id: 0)) {
      Row()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  // MARK: Issue 20, point 2: identity includes the child's own

  @Test func replacingTheChildWithAnotherIdentityCancelsTheOldChildsEffects() async {
    let store = row()
    await store.send(.show(1)) { $0.child = Ticker.State(id: 1) }
    await store.send(.child(.start))
    await store.send(.replace(2)) { $0.child = Ticker.State(id: 2) }
    await clock.advance(by: .seconds(1))
    await store.finish()  // child 1's tick never reaches child 2
  }

  @Test func writingBackTheSameChildKeepsItsEffects() async {
    let store = row()
    await store.send(.show(1)) { $0.child = Ticker.State(id: 1) }
    await store.send(.child(.start))
    await store.send(.bump) { $0.child?.ticks = 10 }
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.tick)) { $0.child?.ticks = 11 }
    await store.finish()
  }

  @Test func clearingOneSiblingsChildKeepsTheOtherSiblingsChildEffects() async {
    let store = TestStore(initialState: Pair.State()) {
      Pair()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.left(.show(10))) { $0.left.child = Ticker.State(id: 10) }
    await store.send(.right(.show(20))) { $0.right.child = Ticker.State(id: 20) }
    await store.send(.left(.child(.start)))
    await store.send(.right(.child(.start)))
    await store.send(.left(.clear)) { $0.left.child = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(.right(.child(.tick))) { $0.right.child?.ticks = 1 }
    await store.finish()
  }

  // MARK: Ported from TCA

  @Test func clearingTheChildCancelsItsEffects() async {
    let store = row()
    await store.send(.show(1)) { $0.child = Ticker.State(id: 1) }
    await store.send(.child(.start))
    await store.send(.clear) { $0.child = nil }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func clearingTheChildCancelsItsGrandchildsEffects() async {
    struct Parent: Reducer {
      struct State: Equatable, Sendable { var row: Row.State? }
      enum Action: Equatable, Sendable {
        case row(Row.Action)
        case exit
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .exit = action { state.row = nil }
          return .none
        }
        .ifLet(\.row, action: Action.row) { Row() }
      }
    }
    let store = TestStore(
      initialState: Parent.State(row: Row.State(id: 0, child: Ticker.State(id: 1)))
    ) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.row(.child(.start)))
    await store.send(.exit) { $0.row = nil }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func anActionForANilChildWarnsAndTheParentRuns() async {
    let store = row()
    await withKnownIssue {
      await store.send(.child(.tick))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("while its child state was nil") }
    }
  }

  @Test func anIdentifiableChildReplacedMidEffectOnlyReceivesItsOwnResponses() async {
    let store = row()
    await store.send(.show(1)) { $0.child = Ticker.State(id: 1) }
    await store.send(.child(.start))
    await store.send(.replace(2)) { $0.child = Ticker.State(id: 2) }
    await store.send(.child(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.tick)) { $0.child?.ticks = 1 }
    await store.finish()
  }
}
