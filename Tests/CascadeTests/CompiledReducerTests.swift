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
