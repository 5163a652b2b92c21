import CascadeTesting
import Testing

@testable import Cascade

// TCA's DependencyKeyWritingReducerTests, in Cascade's words: of two `.dependency` (or
// `.transformDependency`) modifiers the innermost decides, chained or across a
// `CombineReducers`, and an effect of an effect still sees the override. Each runs in a real
// Store and in a TestStore. (TCA fuses chained modifiers into one type; Cascade nests them,
// with the same result: see the migration guide.)

private struct Reader: Reducer {
  struct State: Equatable, Sendable { var value = 0 }
  enum Action: Equatable, Sendable { case tap }
  @Dependency(\.testNumber) var value
  var body: some Reducer<State, Action> {
    Reduce { state, _ in
      state.value = value
      return .none
    }
  }
}

private struct EffectOfEffect: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable {
    case tap
    case response(Int)
    case otherResponse(Int)
  }
  @Dependency(\.testNumber) var value
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .tap:
        state.count += 1
        return .run { [value] send in await send(.response(value)) }
      case let .response(received):
        state.count = received
        return .run { [value] send in await send(.otherResponse(value)) }
      case let .otherResponse(received):
        state.count = received
        return .none
      }
    }
  }
}

/// The four shapes of TCA's ordering tests; each must read 42.
@MainActor
private let shapes: [(String, () -> any Reducer<Reader.State, Reader.Action>)] = [
  (
    "chained writes", { Reader().dependency(\.testNumber, 42).dependency(\.testNumber, 1729) }
  ),
  (
    "chained transforms",
    {
      Reader()
        .transformDependency(\.testNumber) { $0 = 42 }
        .transformDependency(\.testNumber) { $0 = 1729 }
    }
  ),
  (
    "a write inside CombineReducers",
    {
      CombineReducers { Reader().dependency(\.testNumber, 42) }
        .dependency(\.testNumber, 1729)
    }
  ),
  (
    "a transform inside CombineReducers",
    {
      CombineReducers { Reader().transformDependency(\.testNumber) { $0 = 42 } }
        .transformDependency(\.testNumber) { $0 = 1729 }
    }
  ),
]

@MainActor
@Suite struct DependencyModifierTests {
  @Test func theInnermostOverrideDecidesInAStore() {
    for (name, make) in shapes {
      let reducer = make()
      let store = Store(initialState: Reader.State()) { Reduce(reducer) }
      store.send(.tap)
      #expect(store.state.value == 42, "\(name)")
    }
  }

  @Test func theInnermostOverrideDecidesInATestStore() async {
    for (_, make) in shapes {
      let reducer = make()
      let store = TestStore(initialState: Reader.State()) { Reduce(reducer) }
      await store.send(.tap) { $0.value = 42 }
    }
  }

  @Test func anEffectOfAnEffectSeesTheOverrideInATestStore() async {
    let store = TestStore(initialState: EffectOfEffect.State()) {
      EffectOfEffect().dependency(\.testNumber, 42)
    }
    await store.send(.tap) { $0.count = 1 }
    await store.receive(.response(42)) { $0.count = 42 }
    await store.receive(.otherResponse(42))
  }

  @Test func anEffectOfAnEffectSeesTheOverrideInAStore() async {
    let store = Store(initialState: EffectOfEffect.State()) {
      EffectOfEffect().dependency(\.testNumber, 42)
    } withDependencies: {
      $0.testNumber = 7
    }
    await store.send(.tap).finish()
    #expect(store.state.count == 42)
  }
}
