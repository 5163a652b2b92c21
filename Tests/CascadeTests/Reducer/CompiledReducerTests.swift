import CascadeTesting
import Testing

@testable import Cascade

// A store compiles its reducer once. A tree of scopes over concrete features compiles to one
// nested value, and must behave exactly as the reducers it was compiled from: child first,
// effects embedded, operators that keep state across actions still keeping it.

private struct Counter: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case increment, incrementLater, incremented }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .send(.incremented)
    case .incrementLater:
      return .run { send in await send(.increment) }
    case .incremented:
      return .none
    }
  }
}

/// Stores its counter behind a computed property: no stored offset to reach it at.
private struct Middle: Reducer {
  struct State: Equatable, Sendable {
    var storage = Counter.State()
    var counter: Counter.State {
      get { storage }
      set { storage = newValue }
    }
    var changes = 0
  }
  enum Action: Equatable, Sendable { case counter(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Action.counter) { Counter() }
      .onChange(of: \.storage.count) { _, _ in
        Reduce { state, _ in
          state.changes += 1
          return .none
        }
      }
  }
}

private struct Root: Reducer {
  struct State: Equatable, Sendable {
    var middle = Middle.State()
    var log: [String] = []
  }
  enum Action: Equatable, Sendable { case middle(Middle.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.middle, action: Action.middle) { Middle() }
    Reduce { state, action in
      // The parent runs after the child, and sees the child's change.
      guard case let .middle(.counter(counterAction)) = action else { return .none }
      state.log.append("\(counterAction) at \(state.middle.counter.count)")
      return .none
    }
  }
}

private typealias Row = IdentifiedCounter

/// One of each operator that keeps state across actions, or is chosen at run time.
private enum Host {
  struct State: Equatable, Sendable {
    var child: Counter.State?
    var rows: IdentifiedArrayOf<Row.State> = []
    var path = StackState<Counter.State>()
    @PresentationState var sheet: Counter.State?
  }
  enum Action: Sendable {
    case child(Counter.Action)
    case rows(IdentifiedActionOf<Row>)
    case path(StackActionOf<Counter>)
    case sheet(PresentationAction<Counter.Action>)
  }
  static var base: Reduce<State, Action> { Reduce { _, _ in .none } }
}

@MainActor
@Suite struct CompiledReducerTests {
  @Test func aTreeOfScopesCompilesToOneNestedValue() {
    let compiled = Root()._compile()
    // The root's body: its scope, then its Reduce, in one sequence; the scope holds its child's
    // compiled form, not a function.
    #expect(
      type(of: compiled)
        == _CompiledSequence<
          _CompiledScope<Root.State, Root.Action, _ClosureReducer<Middle.State, Middle.Action>>,
          _LeafReducer<Reduce<Root.State, Root.Action>>
        >.self)
    // Middle's onChange keeps the value it saw across actions: it compiles to its function.
    #expect(type(of: Middle()._compile()) == _ClosureReducer<Middle.State, Middle.Action>.self)
    let scope = Scope(state: \Middle.State.storage, action: Middle.Action.counter) { Counter() }
    #expect(
      type(of: scope._compile())
        == _CompiledScope<Middle.State, Middle.Action, _LeafReducer<Counter>>.self)
  }

  @Test func everyOperatorThatKeepsStateCompilesToItsFunctionBuiltOnce() {
    // Compiled as a leaf instead, each would rebuild its function (and lose what it keeps:
    // the live screens, the presented child, the cached dependencies) at every action.
    typealias Function = _ClosureReducer<Host.State, Host.Action>
    let base = Host.base
    #expect(
      type(of: base.ifLet(\.child, action: Host.Action.child) { Counter() }._compile())
        == Function.self)
    #expect(
      type(of: base.forEach(\.rows, action: Host.Action.rows) { Row() }._compile()) == Function.self
    )
    #expect(
      type(of: base.forEach(\.path, action: Host.Action.path) { Counter() }._compile())
        == Function.self)
    // The presentation compiles to a value naming its parent and its destination, as a scope
    // does; what it keeps (the presented child's lifetime, its dependencies, the destination's
    // compiled form) is held by reference, made once when it is compiled.
    #expect(
      type(of: base.ifLet(\.$sheet, action: Host.Action.sheet) { Counter() }._compile())
        == _CompiledPresentation<_LeafReducer<Reduce<Host.State, Host.Action>>, Counter>.self)
    #expect(
      type(of: base.onChange(of: \.path.count) { _, _ in Host.base }._compile()) == Function.self)
    #expect(type(of: base.intercept()._compile()) == Function.self)
    #expect(type(of: base.dependency(\.context, .test)._compile()) == Function.self)
    let optional: Reduce<Host.State, Host.Action>? = base
    #expect(type(of: optional._compile()) == Function.self)
    let branch = _ConditionalReducer<
      Reduce<Host.State, Host.Action>, EmptyReducer<Host.State, Host.Action>
    >.first(base)
    #expect(type(of: branch._compile()) == Function.self)
    #expect(type(of: _ArrayReducer(reducers: [base])._compile()) == Function.self)
  }

  @Test func aStoreRunsTheCompiledTreeChildFirstThroughAComputedProperty() async {
    let store = Store(initialState: Root.State()) { Root() }
    store.send(.middle(.counter(.increment)))
    #expect(store.state.middle.counter.count == 1)
    #expect(store.state.middle.changes == 1)
    #expect(store.state.log == ["increment at 1", "incremented at 1"])
    await store.send(.middle(.counter(.incrementLater))).finish()
    #expect(store.state.middle.counter.count == 2)
    #expect(store.state.middle.changes == 2)
    #expect(
      store.state.log == [
        "increment at 1", "incremented at 1", "incrementLater at 1", "increment at 2",
        "incremented at 2",
      ])
  }

  @Test func aTestStoreSeesTheSameTree() async {
    let store = TestStore(initialState: Root.State()) { Root() }
    await store.send(.middle(.counter(.increment))) {
      $0.middle.counter.count = 1
      $0.middle.changes = 1
      $0.log = ["increment at 1"]
    }
    await store.receive(.middle(.counter(.incremented))) {
      $0.log.append("incremented at 1")
    }
    await store.send(.middle(.counter(.incrementLater))) {
      $0.log.append("incrementLater at 1")
    }
    await store.receive(.middle(.counter(.increment))) {
      $0.middle.counter.count = 2
      $0.middle.changes = 2
      $0.log.append("increment at 2")
    }
    await store.receive(.middle(.counter(.incremented))) {
      $0.log.append("incremented at 2")
    }
    await store.finish()
  }
}
