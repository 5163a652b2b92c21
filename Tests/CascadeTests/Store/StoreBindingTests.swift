import Cascade
import CascadeTestSupport
import CascadeTesting
import Observation
import Testing

// Parity with TCA's binding tests for a store's dynamic member (Store+Observation's settable
// subscript, exercised by BindingTests and BindableStoreTests): 4 behaviours ported (a write
// sends `.binding(.set(keyPath, value))` that the `BindingReducer` applies before the rest of
// the body reacts to it; an equal value is sent again; a nested field is reached through its
// parent; a scoped child store of a bindable feature is written through too), 2 deliberately
// different (BindableStoreTests and the ViewStore tests compile SwiftUI views,
// `WithViewStore` and `@BindingViewState`: the headless core has none of them; a write of a
// part of a field, `store.nested.field = x`, sends the whole field, `.set(\.nested, …)`, where
// TCA's `viewStore.$nested.field` sent the nested key path).

/// A profile form: a binding per field, and a log of every action the reducer sees.
private struct ProfileForm: Reducer {
  struct State: Equatable {
    var name = ""
    var address = Address()
    var log: [Action] = []
    var greeting = ""
  }
  struct Address: Equatable {
    var city = ""
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case greet
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      state.log.append(action)
      switch action {
      case .binding(\.name):
        // The binding was written before this reducer ran.
        state.greeting = "Hello, \(state.name)"
        return .none
      case .binding(\.address):
        state.address.city = state.address.city.uppercased()
        return .none
      case .binding, .greet:
        return .none
      }
    }
  }
}

/// A parent embedding the form, to write through a scoped store.
private struct Settings: Reducer {
  struct State: Equatable { var form = ProfileForm.State() }
  enum Action: Equatable { case form(ProfileForm.Action) }
  var body: some ReducerOf<Self> {
    Scope(state: \.form, action: Action.form) { ProfileForm() }
  }
}

@MainActor
@Suite struct StoreBindingTests {
  @Test func writingAFieldSendsOneBindingActionThatTheBindingReducerApplies() {
    let store = Store(initialState: ProfileForm.State()) { ProfileForm() }
    store.name = "Blob"
    #expect(store.log == [.binding(.set(\.name, "Blob"))])
    #expect(store.name == "Blob")
    #expect(store.greeting == "Hello, Blob")
  }

  @Test func anObserverHearsTheWrite() {
    let store = Store(initialState: ProfileForm.State()) { ProfileForm() }
    let changes = Box(0)
    withObservationTracking {
      _ = store.name
    } onChange: {
      changes.update { $0 += 1 }
    }
    store.name = "Blob"
    #expect(changes.value == 1)
    #expect(store.state.name == "Blob")
  }

  /// As in TCA: the write is sent whatever the field holds, so a reducer reacting to the
  /// field hears every write a control makes.
  @Test func writingTheValueAFieldAlreadyHoldsStillSends() {
    let store = Store(initialState: ProfileForm.State(name: "Blob")) { ProfileForm() }
    store.name = "Blob"
    store.name = "Blob"
    #expect(store.log == [.binding(.set(\.name, "Blob")), .binding(.set(\.name, "Blob"))])
  }

  @Test func writingAPartOfAFieldSendsTheWholeField() {
    let store = Store(initialState: ProfileForm.State()) { ProfileForm() }
    store.address.city = "Seoul"
    #expect(store.log == [.binding(.set(\.address, ProfileForm.Address(city: "Seoul")))])
    #expect(store.address.city == "SEOUL")
  }

  @Test func aScopedStoreOfABindableFeatureIsWrittenThrough() {
    let store = Store(initialState: Settings.State()) { Settings() }
    let form = store.scope(state: \.form, action: Settings.Action.form)
    form.name = "Blob"
    #expect(store.state.form.name == "Blob")
    #expect(store.state.form.log == [.binding(.set(\.name, "Blob"))])
  }

  /// The test store reduces the action the write sends the same way.
  @Test func theTestStoreReducesTheSameAction() async {
    let store = TestStore(initialState: ProfileForm.State(name: "Blob")) { ProfileForm() }
    await store.send(.binding(.set(\.name, "Blob"))) {
      $0.log = [.binding(.set(\.name, "Blob"))]
      $0.greeting = "Hello, Blob"
    }
    await store.send(.binding(.set(\.address, ProfileForm.Address(city: "Seoul")))) {
      $0.address.city = "SEOUL"
      $0.log.append(.binding(.set(\.address, ProfileForm.Address(city: "Seoul"))))
    }
  }
}
