import Cascade
import CascadeTesting
import Foundation
import Testing

// Parity with TCA's TestStoreTests on the assertion closure: 3 ported (testStateAccess: inside
// a `send` or `receive` closure `store.state` is the state before the action;
// testDependenciesEarlyBinding: the closures run with the store's dependencies;
// testOverrideDependenciesOnTestStore_MidwayChange: and with the ones a test changed mid-way).
// TestStoreNonExhaustiveTests' testEffectfulAssertion_NonExhaustiveTestStore_ShowSkippedAssertions
// (an expected failure in TCA) is matched: a model made in the closure takes the next id of the
// store's generator, not the one the reducer took.

/// A model that takes its id from the dependencies when it is made, as TCA's Testing article's
/// "models made with dependencies" do.
private struct Model: Equatable, Sendable {
  let id: UUID
  init() {
    @Dependency(\.uuid) var uuid
    id = uuid()
  }
  init(id: UUID) { self.id = id }
}

/// A list that grows by one model per tap, and a stamp read from the date dependency.
private struct Models: Reducer {
  struct State: Equatable, Sendable {
    var values: [Model] = []
    var stamp: Date
    /// The stamp is read from the dependencies when the state is made.
    init() {
      @Dependency(\.date.now) var now
      stamp = now
    }
  }
  enum Action: Equatable, Sendable {
    case addTapped
    case stampTapped
    case stampLater
    case stamped
  }

  @Dependency(\.date.now) var now

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addTapped:
      state.values.append(Model())
      return .none
    case .stampTapped, .stamped:
      state.stamp = now
      return .none
    case .stampLater:
      return .send(.stamped)
    }
  }
}

/// One tap makes three more actions: the counting feature of TCA's state-access test.
private enum Tap: Equatable, Sendable { case first, second, third, fourth }

private func counting() -> Reduce<Int, Tap> {
  Reduce { count, action in
    count += 1
    return action == .first ? .merge(.send(.second), .send(.third), .send(.fourth)) : .none
  }
}

@MainActor
@Suite(.hangGuard)
struct TestStoreAssertionClosureTests {
  // MARK: store.state inside the closure

  @Test func storeStateInsideTheClosuresIsTheStateBeforeEachAction() async {
    let store = TestStore(initialState: 0) { counting() }
    await store.send(.first) {
      #expect(store.state == 0)
      $0 = 1
    }
    #expect(store.state == 1)
    await store.receive(.second) {
      #expect(store.state == 1)
      $0 = 2
    }
    #expect(store.state == 2)
    await store.receive(.third) {
      #expect(store.state == 2)
      $0 = 3
    }
    await store.receive(.fourth) {
      #expect(store.state == 3)
      $0 = 4
    }
    #expect(store.state == 4)
  }

  @Test func copyingStoreStateInASendClosureAssertsNothingAndFails() async {
    let store = TestStore(initialState: 0) { counting() }
    await withKnownIssue {
      await store.send(.second) { $0 = store.state }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("does not match the expectation") && text.contains("− 0")
        && text.contains("+ 1")
    }
    #expect(store.state == 1)
  }

  @Test func copyingStoreStateInAReceiveClosureAssertsNothingAndFails() async {
    let store = TestStore(initialState: 0) { counting() }
    await store.send(.first) { $0 = 1 }
    await withKnownIssue {
      await store.receive(.second) { $0 = store.state }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("− 1") && text.contains("+ 2")
    }
    await store.receive(.third) { $0 = 3 }
    await store.receive(.fourth) { $0 = 4 }
  }

  @Test func aNonExhaustiveClosureAlsoSeesTheStateBeforeTheAction() async {
    let store = TestStore(initialState: 0) { counting() }
    store.exhaustivity = .off
    await store.send(.second) {
      #expect(store.state == 0)
      $0 = 1
    }
    #expect(store.state == 1)
  }

  // MARK: The closure's dependencies

  @Test func theClosuresRunWithTheStoresDependencies() async {
    let store = TestStore(initialState: Models.State()) {
      Models()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1_234_567_890))
    }
    // The date was not changed by the tap: the closure reads the store's constant date.
    await store.send(.stampTapped) {
      @Dependency(\.date.now) var now
      $0.stamp = now
    }
    await store.send(.stampLater)
    await store.receive(.stamped) {
      @Dependency(\.date.now) var now
      #expect(now == Date(timeIntervalSince1970: 1_234_567_890))
      $0.stamp = now
    }
    store.assert {
      @Dependency(\.date.now) var now
      $0.stamp = now
    }
  }

  @Test func theClosureSeesDependenciesChangedMidTest() async {
    let store = TestStore(initialState: Models.State()) {
      Models()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1_000))
    }
    store.dependencies.date = .constant(Date(timeIntervalSince1970: 2_000))
    await store.send(.stampTapped) {
      @Dependency(\.date.now) var now
      #expect(now == Date(timeIntervalSince1970: 2_000))
      $0.stamp = now
    }
  }

  /// As in TCA, the closure shares the store's generator: a model the closure makes takes the
  /// next id, not the one the reducer took.
  @Test func aModelMadeInTheClosureTakesTheNextIDOfTheStoresSequence() async {
    let store = TestStore(initialState: Models.State()) {
      Models()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 0))
      $0.uuid = .incrementing
    }
    await store.send(.addTapped) {
      $0.values = [Model(id: UUID(0))]
      #expect(Model().id == UUID(1))
    }
    // The closure's draw advanced the sequence the reducer uses too.
    await store.send(.addTapped) {
      $0.values.append(Model(id: UUID(2)))
    }
    await withKnownIssue {
      await store.send(.addTapped) { $0.values.append(Model()) }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("− ") && text.contains("UUID(00000000-0000-0000-0000-000000000004)")
        && text.contains("UUID(00000000-0000-0000-0000-000000000003)")
    }
  }
}
