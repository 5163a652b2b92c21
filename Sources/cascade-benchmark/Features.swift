import Cascade
import Observation

/// W1d: a dependency the benchmark overrides with `.dependency(...)`.
enum BenchmarkValueKey: DependencyKey {
  static let liveValue = 0
  static let testValue = 0
}

extension DependencyValues {
  var benchmarkValue: Int {
    get { self[BenchmarkValueKey.self] }
    set { self[BenchmarkValueKey.self] = newValue }
  }
}

/// W1, W6: a counter.
struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// W2, W3, W8: ten features, each a concrete type embedding the next with `Scope`, over a
/// counter: the shape of a real app's feature tree.

struct L1: Reducer {
  struct State: Equatable { var child = Counter.State() }
  enum Action { case child(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Counter() }
  }
}

struct L2: Reducer {
  struct State: Equatable { var child = L1.State() }
  enum Action { case child(L1.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L1() }
  }
}

struct L3: Reducer {
  struct State: Equatable { var child = L2.State() }
  enum Action { case child(L2.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L2() }
  }
}

struct L4: Reducer {
  struct State: Equatable { var child = L3.State() }
  enum Action { case child(L3.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L3() }
  }
}

struct L5: Reducer {
  struct State: Equatable { var child = L4.State() }
  enum Action { case child(L4.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L4() }
  }
}

struct L6: Reducer {
  struct State: Equatable { var child = L5.State() }
  enum Action { case child(L5.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L5() }
  }
}

struct L7: Reducer {
  struct State: Equatable { var child = L6.State() }
  enum Action { case child(L6.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L6() }
  }
}

struct L8: Reducer {
  struct State: Equatable { var child = L7.State() }
  enum Action { case child(L7.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L7() }
  }
}

struct L9: Reducer {
  struct State: Equatable { var child = L8.State() }
  enum Action { case child(L8.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L8() }
  }
}

struct L10: Reducer {
  struct State: Equatable { var child = L9.State() }
  enum Action { case child(L9.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { L9() }
  }
}

func deepFeature() -> L10 { L10() }

func deepState() -> L10.State { L10.State() }

/// The leaf's action, embedded through the ten levels.
func deepLeafAction() -> L10.Action {
  .child(.child(.child(.child(.child(.child(.child(.child(.child(.child(.increment))))))))))
}

/// W4: a root with a navigation stack of screens.
struct Screen: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action { case tap }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps &+= 1
    return .none
  }
}

struct StackRoot: Reducer {
  struct State: Equatable { var path = StackState<Screen.State>() }
  enum Action {
    case path(StackActionOf<Screen>)
    case push
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .push = action { state.path.append(Screen.State()) }
      return .none
    }
    .forEach(\.path, action: Action.path) { Screen() }
  }
}

/// W5: every action starts an effect that sends a follow-up. The follow-up tells the benchmark
/// it has been reduced, so that the round trip is timed to its end, not to a poll.
struct Ping: Reducer {
  struct State: Equatable { var pongs = 0 }
  enum Action: Sendable { case ping, pong, nothing }
  let roundTrips: RoundTrips
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping: return .run { send in await send(.pong) }
    case .pong:
      state.pongs &+= 1
      roundTrips.reducedByReducer()
      return .none
    case .nothing: return .none
    }
  }
}

/// W7: a parent that presents and dismisses a child.
struct Presenter: Reducer {
  struct State: Equatable {
    @PresentationState var child: Counter.State?
  }
  enum Action {
    case present
    case child(PresentationAction<Counter.Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .present = action { state.child = Counter.State() }
      return .none
    }
    .ifLet(\.$child, action: Action.child) { Counter() }
  }
}
