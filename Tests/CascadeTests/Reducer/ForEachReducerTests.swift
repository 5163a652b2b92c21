import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's ForEachReducerTests: 4 behaviours ported, 0 deliberately different (the
// warning's text is Cascade's own).

private struct List: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Ticker.State> = []
  }
  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Ticker>)
    case add(Int)
    case removeLast
    case keepOnly(Int)
    case other
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .add(id): state.rows.append(Ticker.State(id: id))
      case .removeLast: state.rows.remove(at: state.rows.count - 1)
      case let .keepOnly(id):
        // A whole new collection: its change log says nothing of the old one.
        state.rows = IdentifiedArray(uniqueElements: state.rows.elements.filter { $0.id == id })
      case .rows, .other: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rows) { Ticker() }
  }
}

@MainActor
@Suite(.hangGuard)
struct ForEachReducerTests {
  let clock = TestClock()

  private func list(_ rows: IdentifiedArrayOf<Ticker.State> = []) -> TestStore<
    List.State, List.Action
  > {
    TestStore(initialState: List.State(rows: rows)) {
      List()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func anElementActionRunsThatElement() async {
    let store = list([Ticker.State(id: 1), Ticker.State(id: 2)])
    await store.send(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
  }

  @Test func anotherActionLeavesTheElementsAlone() async {
    let store = list([Ticker.State(id: 1)])
    await store.send(.other)
  }

  @Test func anActionForAMissingElementWarns() async {
    let store = list()
    await withKnownIssue {
      await store.send(.rows(.element(id: 1, action: .tick)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("not in the collection") }
    }
  }

  @Test func removingAnElementCancelsOnlyItsEffects() async {
    let store = list()
    await store.send(.add(1)) { $0.rows.append(Ticker.State(id: 1)) }
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.add(2)) { $0.rows.append(Ticker.State(id: 2)) }
    await store.send(.rows(.element(id: 2, action: .start)))
    await store.send(.removeLast) { $0.rows.remove(at: $0.rows.count - 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.finish()
  }

  // A collection put in place of another cannot be read from its log: every row but the new
  // collection's loses its effects, and the rows still there keep theirs.
  @Test func aNewCollectionEndsTheEffectsOfTheRowsItDoesNotHold() async {
    let store = list()
    for id in 1...3 {
      await store.send(.add(id)) { $0.rows.append(Ticker.State(id: id)) }
      await store.send(.rows(.element(id: id, action: .start)))
    }
    await store.send(.keepOnly(2)) {
      $0.rows = IdentifiedArray(uniqueElements: [Ticker.State(id: 2)])
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    await store.finish()
  }

  @Test func aRealStoreAlsoEndsOnlyTheRemovedRowsEffects() async {
    let store = Store(initialState: List.State()) {
      List()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.add(1))
    let first = store.send(.rows(.element(id: 1, action: .start)))
    store.send(.add(2))
    let second = store.send(.rows(.element(id: 2, action: .start)))
    store.send(.removeLast)
    await clock.advance(by: .seconds(1))
    await first.finish()
    await second.finish()
    #expect(store.state.rows.map(\.ticks) == [1])
  }
}
