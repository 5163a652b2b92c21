import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's BindingReducerTests (6 tests): 4 behaviours ported (the binding is written
// before the next reducer runs, a nested field, an exact `.set` pattern matched before its
// field's key path, equality of field and value), 2 deliberately different (the ViewStore and
// `BindingViewState` tests: SwiftUI view stores, which the headless core leaves out; a store's
// settable dynamic member, `store.field = value`, is tested in StoreBindingTests).

/// A search form: every field is a binding; typing in the query searches when live search is on.
private struct SearchForm: Reducer {
  struct State: Equatable {
    var query = ""
    var isLive = false
    var limit = 10
    var searches: [String] = []
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case search
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.query):
        // The binding reducer ran first: the new query is already in the state.
        return state.isLive ? .send(.search) : .none
      case .binding(\.limit):
        state.limit = max(1, state.limit)
        return .none
      case .binding:
        return .none
      case .search:
        state.searches.append(state.query)
        return .none
      }
    }
  }
}

/// A settings form with a nested field, and a reducer that matches one exact binding before
/// the key path of its field.
private struct Settings: Reducer {
  struct State: Equatable {
    var profile = Profile()
    var volume = 5
    var log: [String] = []
  }
  struct Profile: Equatable {
    var name = ""
    var isPublic = false
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(.set(\.volume, 11)):
        state.log.append("eleven")
      case .binding(\.volume):
        state.log.append("volume \(state.volume)")
      case .binding(\.profile.name):
        state.log.append("name \(state.profile.name)")
      case .binding:
        state.log.append("other")
      }
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct BindingReducerTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  @Test func aBindingWritesItsFieldInAStore() {
    let store = Store(initialState: SearchForm.State()) { SearchForm() }
    store.send(.binding(.set(\.query, "seoul")))
    store.send(.set(\.isLive, true))
    #expect(store.state.query == "seoul")
    #expect(store.state.isLive)
    #expect(store.state.searches.isEmpty)
  }

  @Test func theParentReactsToOneFieldAfterTheBindingIsWritten() async {
    let store = Store(initialState: SearchForm.State(isLive: true)) { SearchForm() }
    await store.send(.set(\.query, "busan")).finish()
    #expect(store.state.searches == ["busan"])
    store.send(.set(\.isLive, false))
    await store.send(.set(\.query, "daegu")).finish()
    #expect(store.state.searches == ["busan"])
  }

  @Test func aReducerCanAdjustTheValueABindingWrote() {
    let store = Store(initialState: SearchForm.State()) { SearchForm() }
    store.send(.set(\.limit, -5))
    #expect(store.state.limit == 1)
  }

  @Test func aTestStoreAssertsBindingsAndReceivesWhatTheyCause() async {
    let store = TestStore(initialState: SearchForm.State()) { SearchForm() }
    await store.send(.binding(.set(\.isLive, true))) { $0.isLive = true }
    await store.send(.set(\.query, "jeju")) { $0.query = "jeju" }
    await store.receive(.search) { $0.searches = ["jeju"] }
    await store.send(.set(\.limit, 0)) { $0.limit = 1 }
  }

  @Test func aTestStoreFailsOnAWrongBindingAssertion() async {
    let store = TestStore(initialState: SearchForm.State()) { SearchForm() }
    await withKnownIssue {
      await store.send(.set(\.query, "jeju")) { $0.query = "jej" }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("jej")
    }
  }

  @Test func bindingActionsCompareFieldAndValue() {
    typealias Binding = BindingAction<SearchForm.State>
    #expect(Binding.set(\.query, "a") == Binding.set(\.query, "a"))
    #expect(Binding.set(\.query, "a") != Binding.set(\.query, "b"))
    #expect(Binding.set(\.limit, 1) != Binding.set(\.query, "1"))
    #expect(SearchForm.Action.set(\.query, "a") == .binding(.set(\.query, "a")))
  }

  @Test func aKeyPathMatchesOnlyBindingsOfItsField() {
    let action = BindingAction<SearchForm.State>.set(\.query, "x")
    #expect(\SearchForm.State.query ~= action)
    #expect(!(\SearchForm.State.limit ~= action))
    switch SearchForm.Action.set(\.isLive, true) {
    case .binding(\.query): Issue.record("matched the wrong field")
    case .binding(\.isLive): break
    default: Issue.record("did not match its field")
    }
  }

  @Test func aBindingPrintsItsFieldAndValue() {
    let text = String(reflecting: BindingAction<SearchForm.State>.set(\.query, "seoul"))
    #expect(text.hasPrefix(".set(\\"))
    #expect(text.contains("query"))
    #expect(text.hasSuffix("\"seoul\")"))
  }

  @Test func aBindingReachesANestedFieldAndMatchesItsFullPath() async {
    let store = Store(initialState: Settings.State()) { Settings() }
    store.send(.set(\.profile.name, "Blob"))
    store.send(.set(\.profile.isPublic, true))
    #expect(store.state.profile == Settings.Profile(name: "Blob", isPublic: true))
    #expect(store.state.log == ["name Blob", "other"])

    let testStore = TestStore(initialState: Settings.State()) { Settings() }
    await testStore.send(.set(\.profile.name, "Blob")) {
      $0.profile.name = "Blob"
      $0.log = ["name Blob"]
    }
  }

  @Test func anExactBindingPatternMatchesBeforeItsFieldsKeyPath() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(.set(\.volume, 11)) {
      $0.volume = 11
      $0.log = ["eleven"]
    }
    await store.send(.set(\.volume, 3)) {
      $0.volume = 3
      $0.log = ["eleven", "volume 3"]
    }
  }

  @Test func applyWritesIntoAnyStateValue() {
    var state = SearchForm.State()
    BindingAction<SearchForm.State>.set(\.limit, 3).apply(to: &state)
    #expect(state.limit == 3)
  }
}
