import CascadeTestSupport
import Observation
import Testing

@testable import Cascade

// Issue 37 (S5): a row's store is observed on its own. A change to one row wakes the observers
// of that row alone; other stores are still observed as a whole.

private typealias Row = IdentifiedCounter

private struct List: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = []
    var title = ""
    /// The rows through a read-only key path: a store cannot turn on their log of changes.
    var shownRows: IdentifiedArrayOf<Row.State> { rows }
  }
  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Row>)
    case bumpFromParent(Int)
    case remove(Int)
    case replaceAll
    case rename(String)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .bumpFromParent(id): state.rows[id: id]?.count += 10
      case let .remove(id): state.rows.remove(id: id)
      case .replaceAll: state.rows = IdentifiedArray(uniqueElements: state.rows.elements)
      case let .rename(title): state.title = title
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rows) { Row() }
  }
}

/// Counts the changes an observer hears, registering again after each, as a view does.
@MainActor
private final class Watcher {
  var heard = 0
  let read: @MainActor () -> Void
  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    track()
  }
  func track() {
    withObservationTracking {
      read()
    } onChange: {
      MainActor.assumeIsolated {
        self.heard += 1
        self.track()
      }
    }
  }
}

@MainActor
@Suite struct RowObservationTests {
  private func makeList(rows: Int) -> Store<List.State, List.Action> {
    let state = List.State(
      rows: IdentifiedArray(uniqueElements: (0..<rows).map { Row.State(id: $0) }))
    return Store(initialState: state) { List() }
  }

  private func rowStore(_ list: Store<List.State, List.Action>, _ id: Int) -> StoreOf<Row> {
    list.scope(state: \.rows, action: List.Action.rows, id: id)!
  }

  @Test func anObserverOfOneRowHearsOnlyThatRowsChanges() {
    let list = makeList(rows: 3)
    let (first, second) = (rowStore(list, 0), rowStore(list, 1))
    let watchFirst = Watcher { _ = first.state.count }
    let watchSecond = Watcher { _ = second.state.count }
    second.send(.increment)
    #expect(watchFirst.heard == 0)
    #expect(watchSecond.heard == 1)
    // Changed by the parent's reducer, not through the row's store: heard as well.
    list.send(.bumpFromParent(0))
    #expect(watchFirst.heard == 1)
    #expect(watchSecond.heard == 1)
    #expect(first.count == 10)
    // A change elsewhere in the state wakes no row.
    list.send(.rename("Groceries"))
    #expect(watchFirst.heard == 1)
    #expect(watchSecond.heard == 1)
  }

  @Test func rowsScopedThroughAReadOnlyKeyPathStillHearTheirChanges() {
    // The store cannot write the collection's flag through `\.shownRows`, so its log stays
    // off: every watched row is told at the end of each batch, which costs precision, never a
    // change missed.
    let list = makeList(rows: 3)
    let first = list.scope(state: \.shownRows, action: List.Action.rows, id: 0)!
    let second = list.scope(state: \.shownRows, action: List.Action.rows, id: 1)!
    let watchFirst = Watcher { _ = first.state.count }
    let watchSecond = Watcher { _ = second.state.count }
    list.send(.bumpFromParent(0))
    #expect(watchFirst.heard == 1)
    #expect(first.count == 10)
    second.send(.increment)
    #expect(watchSecond.heard >= 1)
    #expect(second.count == 1)
    list.send(.bumpFromParent(0))
    #expect(watchFirst.heard >= 2)
    #expect(first.count == 20)
  }

  @Test func removingOrReplacingRowsWakesTheirObservers() {
    let list = makeList(rows: 3)
    let (first, third) = (rowStore(list, 0), rowStore(list, 2))
    let watchFirst = Watcher { _ = first.state.count }
    let watchThird = Watcher { _ = third.state.count }
    list.send(.remove(2))
    #expect(watchThird.heard == 1)
    #expect(watchFirst.heard == 0)
    // A whole new collection: the log cannot say which rows changed, so every watched row hears.
    list.send(.replaceAll)
    #expect(watchFirst.heard == 1)
  }

  @Test func afterTheWholeCollectionIsReplacedAChangeStillWakesOnlyItsRow() {
    let list = makeList(rows: 3)
    let (first, second) = (rowStore(list, 0), rowStore(list, 1))
    let watchFirst = Watcher { _ = first.state.count }
    let watchSecond = Watcher { _ = second.state.count }
    list.send(.replaceAll)
    #expect(watchFirst.heard == 1)
    #expect(watchSecond.heard == 1)
    // The new collection logs its rows' changes from the end of that batch on.
    list.send(.bumpFromParent(0))
    #expect(watchFirst.heard == 2)
    #expect(watchSecond.heard == 1)
  }

  @Test func aStoreWhoseRowsNobodyObservesLeavesItsCollectionUnlogged() {
    let observed = makeList(rows: 3)
    let quiet = makeList(rows: 3)
    let row = rowStore(observed, 1)
    let watcher = Watcher { _ = row.state.count }
    // One store's row observers do not make another store's collection log its rows.
    let stamp = quiet.state.rows._stamp
    quiet.send(.bumpFromParent(1))
    quiet.send(.rows(.element(id: 2, action: .increment)))
    #expect(quiet.state.rows._stamp == stamp)
    #expect(!quiet.state.rows._logsElementChanges)
    #expect(quiet.state.rows._log.entries.isEmpty)
    observed.send(.bumpFromParent(1))
    #expect(observed.state.rows._logsElementChanges)
    #expect(watcher.heard == 1)
  }

  @Test func theRootStoreIsStillObservedAsAWhole() {
    let list = makeList(rows: 2)
    let watchRoot = Watcher { _ = list.state.title }
    rowStore(list, 1).send(.increment)
    #expect(watchRoot.heard == 1)
  }

  @Test func ofAThousandObservedRowsOneChangeWakesOne() {
    let list = makeList(rows: 1_000)
    let stores = (0..<1_000).map { rowStore(list, $0) }
    let watchers = stores.map { store in Watcher { _ = store.state.count } }
    stores[500].send(.increment)
    list.send(.bumpFromParent(7))
    #expect(watchers.map(\.heard).reduce(0, +) == 2)
    #expect(watchers[500].heard == 1)
    #expect(watchers[7].heard == 1)
  }

  @Test func aRowsValuesStreamRunsItsTransformOnlyWhenItsRowChanged() async {
    let list = makeList(rows: 3)
    let row = rowStore(list, 1)
    let transforms = Box(0)
    var values = row.values(of: { state in
      transforms.update { $0 += 1 }
      return state.count
    }).makeAsyncIterator()
    #expect(
      await withDeadline("the row's count 0") { await values.next(isolation: #isolation) } == 0)
    let before = transforms.value
    rowStore(list, 0).send(.increment)
    list.send(.rename("x"))
    #expect(transforms.value == before)
    row.send(.increment)
    #expect(
      await withDeadline("the row's count 1") { await values.next(isolation: #isolation) } == 1)
  }

  @Test func aStackScreensStoreHearsOnlyItsScreen() {
    let store = Store(initialState: Screens.State()) { Screens() }
    store.send(.push)
    store.send(.push)
    let ids = store.state.path.ids
    let screens = ids.map { store.scope(state: \.path, action: Screens.Action.path, id: $0)! }
    let watchers = screens.map { screen in Watcher { _ = screen.state.count } }
    screens[1].send(.increment)
    #expect(watchers.map(\.heard) == [0, 1])
    store.send(.path(.popFrom(id: ids[1])))
    #expect(watchers.map(\.heard) == [0, 2])
  }
}

private struct Screens: Reducer {
  struct State: Equatable, Sendable { var path = StackState<Row.State>() }
  enum Action: Equatable, Sendable {
    case push
    case path(StackAction<Row.State, Row.Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .push = action { state.path.append(Row.State()) }
      return .none
    }
    .forEach(\.path, action: Action.path) { Row() }
  }
}
