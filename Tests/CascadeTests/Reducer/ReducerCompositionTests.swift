import CascadeTesting
import Testing

@testable import Cascade

// TCA's ReducerBuilderTests check that compositions type-check: scopes with several children,
// combined scopes, `ifLet`, `ifCaseLet` inside an `ifLet`, `forEach`, flow control, a reducer
// typed `any Reducer`, a body that is a stored property, and a scope to `\.self`. Here the same shapes also run: each child counts its taps, so every reducer of
// a composition is seen to run once, in a Store (which compiles the composition) and in a
// TestStore alike.

private struct Tapper: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var taps = 0
  }
  enum Action: Equatable, Sendable { case tap }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 1
    return .none
  }
}

private struct Tappers: Reducer {
  enum State: Equatable, Sendable {
    case a(Tapper.State)
    case b(Tapper.State)
  }
  enum Action: Equatable, Sendable {
    case a(Tapper.Action)
    case b(Tapper.Action)
  }
  var body: some Reducer<State, Action> {
    Scope(state: State.a, action: Action.a) { Tapper() }
    Scope(state: State.b, action: Action.b) { Tapper() }
  }
}

private struct Composed: Reducer {
  struct State: Equatable, Sendable {
    var feature = Tapper.State(id: 0)
    var optionalFeature: Tapper.State? = Tapper.State(id: 1)
    var enumFeature: Tappers.State? = .a(Tapper.State(id: 2))
    var features: IdentifiedArrayOf<Tapper.State> = [Tapper.State(id: 3)]
    var flow = Tapper.State(id: 4)
    var itself = Tapper.State(id: 5)
  }
  enum Action: Equatable, Sendable {
    case feature(Tapper.Action)
    case optionalFeature(Tapper.Action)
    case enumFeature(Tappers.Action)
    case features(IdentifiedActionOf<Tapper>)
    case flow(Tapper.Action)
    case itself(Tapper.Action)
  }
  let flag: Bool

  var body: some Reducer<State, Action> {
    CombineReducers {
      Scope(state: \.feature, action: Action.feature) {
        Tapper()
        Tapper()
      }
      Scope(state: \.feature, action: Action.feature) {
        Tapper()
        Tapper()
      }
    }
    .ifLet(\.optionalFeature, action: Action.optionalFeature) {
      Tapper()
      Tapper()
    }
    .ifLet(\.enumFeature, action: Action.enumFeature) {
      EmptyReducer()
        .ifCaseLet(Tappers.State.a, action: Tappers.Action.a) {
          Tapper()
          Tapper()
        }
        .ifCaseLet(Tappers.State.b, action: Tappers.Action.b) {
          Tapper()
          Tapper()
        }
      Tappers()
    }
    .forEach(\.features, action: Action.features) {
      Tapper()
      Tapper()
    }
    Scope(state: \.flow, action: Action.flow) { FlowControl(flag: flag) }
    Scope(state: \.itself, action: Action.itself) {
      Scope(state: \.self, action: CasePath<Tapper.Action, Tapper.Action>.`self`) {
        Tapper()
      }
    }
  }
}

/// `if`, `if`/`else`, `for` and `if #available` in a body.
private struct FlowControl: Reducer {
  let flag: Bool
  var body: some Reducer<Tapper.State, Tapper.Action> {
    if flag {
      Tapper()
    }
    if flag {
      Tapper()
    } else {
      EmptyReducer()
    }
    for _ in 1...3 {
      Tapper()
    }
    if #available(macOS 14, iOS 17, *) {
      Tapper()
    }
    // A reducer known only as `any Reducer`, and one whose body is a stored property.
    Tapper() as any Reducer<Tapper.State, Tapper.Action>
    StoredBody()
  }
}

private struct StoredBody: Reducer {
  let body = Tapper()
}

/// The taps each action makes, as the composition above says.
private let script: [(Composed.Action, @Sendable (inout Composed.State) -> Void)] = [
  (.feature(.tap), { $0.feature.taps += 4 }),
  (.optionalFeature(.tap), { $0.optionalFeature?.taps += 2 }),
  // Both `ifCaseLet` children, then the enum's own scope.
  (.enumFeature(.a(.tap)), { $0.enumFeature = .a(Tapper.State(id: 2, taps: 3)) }),
  (.features(.element(id: 3, action: .tap)), { $0.features[id: 3]?.taps += 2 }),
  (.flow(.tap), { $0.flow.taps += 8 }),
  (.itself(.tap), { $0.itself.taps += 1 }),
]

@MainActor
@Suite struct ReducerCompositionTests {
  @Test func everyReducerOfTheCompositionRunsOnceInAStore() {
    let store = Store(initialState: Composed.State()) { Composed(flag: true) }
    var expected = Composed.State()
    for (action, change) in script {
      store.send(action)
      change(&expected)
      #expect(store.state == expected, "after \(action)")
    }
  }

  @Test func everyReducerOfTheCompositionRunsOnceInATestStore() async {
    let store = TestStore(initialState: Composed.State()) { Composed(flag: true) }
    for (action, change) in script {
      await store.send(action, assert: change)
    }
  }

  @Test func theBranchesNotTakenDoNotRun() {
    let store = Store(initialState: Composed.State()) { Composed(flag: false) }
    store.send(.flow(.tap))
    // The two `if flag` reducers are out: the loop's three, the available one, the erased
    // one and the stored body remain.
    #expect(store.state.flow.taps == 6)
  }
}
