import Testing

@testable import Cascade

// TCA's ChildStoreRemovalTests, in Cascade's terms. A view that presents a sheet identifies it
// by its store: the store it reads for an unchanged presentation must be the same one, or the
// sheet is dismissed and presented again. TCA keeps child stores strongly and removes them on
// a timer once their state is gone; Cascade's cache holds them weakly (a store lives while a
// view holds it), so the timed-removal tests become "released once nobody holds it".

private struct Child: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var text = ""
  }
  enum Action: Equatable, Sendable { case edit(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .edit(text): state.text = text
    }
    return .none
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: Child.State?
    var unrelatedCount = 0
  }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<Child.Action>)
    case dismissChild
    case presentChild(Child.State)
    case unrelatedButtonTapped
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child: break
      case .dismissChild: state.child = nil
      case let .presentChild(child): state.child = child
      case .unrelatedButtonTapped: state.unrelatedCount += 1
      }
      return .none
    }
    .ifLet(\.$child, action: Action.child) { Child() }
  }
}

@MainActor
@Suite struct ChildStoreRemovalTests {
  private func presented(_ store: StoreOf<Parent>) -> StoreOf<Child>? {
    store.scope(state: \.$child, action: Parent.Action.child)
  }

  @Test func nilAndBackAgainBeforeARenderVendsTheSameStoreLater() throws {
    let store = Store(initialState: Parent.State(child: Child.State())) { Parent() }
    let shown = try #require(presented(store))
    // Two writes in one pass (a map's selection: the old one cleared, then the new one set).
    store.send(.dismissChild)
    store.send(.presentChild(Child.State(text: "again")))
    let read = try #require(presented(store))
    #expect(read === shown)
    #expect(read.text == "again")  // the store reads the presentation that is there now
    store.send(.unrelatedButtonTapped)
    #expect(presented(store) === shown)
    read.send(.edit("typed"))
    #expect(store.child?.text == "typed")
  }

  @Test func presentedAgainAfterTheDismissalWasSeenVendsOneNewStore() throws {
    let store = Store(initialState: Parent.State(child: Child.State())) { Parent() }
    weak var first: StoreOf<Child>?
    first = presented(store)  // a view that rendered it and went away
    store.send(.dismissChild)
    #expect(presented(store) == nil)
    store.send(.presentChild(Child.State()))
    let second = try #require(presented(store))
    #expect(first == nil)  // nobody held the first one
    store.send(.unrelatedButtonTapped)
    #expect(presented(store) === second)
  }

  @Test func aStoreKeptPastItsStateIsReleasedWhenItsHolderLetsGo() {
    let store = Store(initialState: Parent.State(child: Child.State())) { Parent() }
    weak var kept: StoreOf<Child>?
    do {
      let holder = presented(store)
      kept = holder
      store.send(.dismissChild)
      #expect(kept != nil)  // held: it reads the last value
      #expect(holder?.text == "")
    }
    #expect(kept == nil)
  }

  @Test func anElementStoreScopedBeforeItsElementWentIsReleasedWithItsHolder() {
    let rows = Store(initialState: Rows.State(rows: [Child.State(id: 1)])) { Rows() }
    weak var row: StoreOf<Child>?
    do {
      // A list that still shows a row that is being removed.
      let stores = rows.scope(state: \.rows, action: Rows.Action.rows)
      rows.send(.removeAllRows)
      row = stores.first
      #expect(row?.id == 1)
    }
    #expect(row == nil)
  }
}

private struct Rows: Reducer {
  struct State: Equatable, Sendable { var rows: IdentifiedArrayOf<Child.State> = [] }
  enum Action: Equatable, Sendable {
    case removeAllRows
    case rows(IdentifiedActionOf<Child>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .removeAllRows = action { state.rows.removeAll() }
      return .none
    }
    .forEach(\.rows, action: Action.rows) { Child() }
  }
}
