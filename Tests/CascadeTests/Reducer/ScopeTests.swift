import CascadeTesting
import Testing

@testable import Cascade

// TCA's ScopeTests, in Cascade's words: a child on a struct property, a child on an enum case,
// each with an effect that sends back to it; and an action for a case the state is not in.
// Each runs under a real Store and under a TestStore: a store compiles the scopes to one value.

private struct Child1: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case decrementTapped, incrementTapped }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .decrementTapped:
        state.count -= 1
        return state.count < 0 ? .run { send in await send(.incrementTapped) } : .none
      case .incrementTapped:
        state.count += 1
        return .none
      }
    }
  }
}

private struct Child2: Reducer {
  enum State: Equatable, Sendable {
    case count(Int)
    case name(String)
  }
  enum Action: Equatable, Sendable {
    case count(Int)
    case name(String)
  }
  var body: some Reducer<State, Action> {
    Scope(state: State.count, action: Action.count) {
      Reduce<Int, Int> { state, action in
        state = action
        return state < 0 ? .run { send in await send(0) } : .none
      }
    }
    Scope(state: State.name, action: Action.name) {
      Reduce<String, String> { state, action in
        state = action
        return state.isEmpty ? .run { send in await send("Empty") } : .none
      }
    }
  }
}

private struct Feature: Reducer {
  struct State: Equatable, Sendable {
    var child1 = Child1.State()
    var child2 = Child2.State.count(0)
  }
  enum Action: Equatable, Sendable {
    case child1(Child1.Action)
    case child2(Child2.Action)
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child1, action: Action.child1) { Child1() }
    Scope(state: \.child2, action: Action.child2) { Child2() }
  }
}

@MainActor
@Suite struct ScopeTests {
  @Test func aStructChildAndItsEffectInATestStore() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.child1(.incrementTapped)) { $0.child1.count = 1 }
    await store.send(.child1(.decrementTapped)) { $0.child1.count = 0 }
    await store.send(.child1(.decrementTapped)) { $0.child1.count = -1 }
    await store.receive(.child1(.incrementTapped)) { $0.child1.count = 0 }
  }

  @Test func aStructChildAndItsEffectInAStore() async {
    let store = Store(initialState: Feature.State()) { Feature() }
    store.send(.child1(.incrementTapped))
    #expect(store.state.child1.count == 1)
    await store.send(.child1(.decrementTapped)).finish()
    #expect(store.state.child1.count == 0)
    await store.send(.child1(.decrementTapped)).finish()
    #expect(store.state.child1.count == 0)  // -1, then the effect's increment
  }

  @Test func anEnumChildAndItsEffectInATestStore() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.child2(.count(1))) { $0.child2 = .count(1) }
    await store.send(.child2(.count(-1))) { $0.child2 = .count(-1) }
    await store.receive(.child2(.count(0))) { $0.child2 = .count(0) }
  }

  @Test func anEnumChildAndItsEffectInAStore() async {
    let store = Store(initialState: Feature.State()) { Feature() }
    store.send(.child2(.count(1)))
    #expect(store.state.child2 == .count(1))
    await store.send(.child2(.count(-1))).finish()
    #expect(store.state.child2 == .count(0))
  }

  @Test func anActionForAnotherCaseIsDroppedWithAWarningInAStore() async {
    let (state, warnings) = await RuntimeWarnings.capturing {
      let store = Store(initialState: Child2.State.count(0)) { Child2() }
      store.send(.name("Blob"))
      return store.state
    }
    #expect(state == .count(0))
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.contains("another case") == true)
    #expect(warnings.first?.message.contains("State case: .count") == true)
    #expect(warnings.first?.fileID.hasSuffix("ScopeTests.swift") == true)
  }

  @Test func anActionForAnotherCaseIsDroppedWithAWarningInATestStore() async {
    let store = TestStore(initialState: Child2.State.count(0)) { Child2() }
    await withKnownIssue {
      await store.send(.name("Blob"))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("State case: .count") }
    }
  }
}

/// A scope whose action path is written with explicit functions (it never learns a case, so
/// every action goes through its `extract`): only what `extract` accepts reaches the child, and
/// the child's effect comes back through `embed`.
private struct ExplicitPathParent: Reducer {
  struct State: Equatable, Sendable { var child1 = Child1.State() }
  enum Action: Equatable, Sendable {
    case child1(Child1.Action)
    case ignoredIncrement
  }
  var body: some Reducer<State, Action> {
    Scope(
      state: \.child1,
      action: CasePath<Action, Child1.Action>(
        embed: { .child1($0) },
        extract: { if case let .child1(action) = $0 { action } else { nil } })
    ) { Child1() }
  }
}

@MainActor
@Suite struct ScopeThroughExplicitPathTests {
  @Test func onlyWhatItsExtractAcceptsReachesTheChildInAStore() async {
    let store = Store(initialState: ExplicitPathParent.State()) { ExplicitPathParent() }
    store.send(.ignoredIncrement)
    #expect(store.state.child1.count == 0)
    await store.send(.child1(.decrementTapped)).finish()
    // -1, then the child's effect sent .incrementTapped back through `embed`.
    #expect(store.state.child1.count == 0)
    store.send(.child1(.incrementTapped))
    #expect(store.state.child1.count == 1)
  }

  @Test func onlyWhatItsExtractAcceptsReachesTheChildInATestStore() async {
    let store = TestStore(initialState: ExplicitPathParent.State()) { ExplicitPathParent() }
    await store.send(.ignoredIncrement)
    await store.send(.child1(.decrementTapped)) { $0.child1.count = -1 }
    await store.receive(.child1(.incrementTapped)) { $0.child1.count = 0 }
    await store.send(.child1(.incrementTapped)) { $0.child1.count = 1 }
  }
}
