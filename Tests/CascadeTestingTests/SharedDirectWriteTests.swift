import Cascade
import CascadeTesting
import Foundation
import Testing

// Issue 50, point 11: code written before `withLock` assigns a shared value directly
// (`count = 43`). It compiles, with a deprecation warning naming `$count.withLock`, and the
// write goes through the lock: every holder sees it and a persisted value is saved.
//
// The deprecated setter is reached only from declarations marked deprecated themselves (a
// deprecated reducer method, a deprecated witness of a test-only protocol), which keeps this
// file free of warnings: CI builds with warnings as errors.

/// A counter whose reducer still writes its shared count directly.
private struct OldCounter: Reducer {
  struct State: Equatable, Sendable {
    @Shared(.appStorage("count")) var count = 42
  }
  enum Action: Equatable, Sendable {
    case set(Int)
    case setLater(Int)
  }

  @available(*, deprecated, message: "exercises Shared's deprecated setter")
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .set(value):
      state.count = value
      return .none
    case let .setLater(value):
      return .run { [count = state.$count] _ in count.wrappedValue = value }
    }
  }
}

/// How a test's assertion closure spells the old write, through a witness marked deprecated.
private protocol OldSpelling {
  func assign(_ value: Int, to state: inout OldCounter.State)
}
private struct DirectAssignment: OldSpelling {
  @available(*, deprecated, message: "exercises Shared's deprecated setter")
  func assign(_ value: Int, to state: inout OldCounter.State) { state.count = value }
}

@MainActor
@Suite(.hangGuard)
struct SharedDirectWriteTests {
  @Test func aDirectWriteInAReducerReachesEveryHolderInAStore() async {
    let store = withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      Store(initialState: OldCounter.State()) { OldCounter() }
    }
    let other = store.state.$count
    store.send(.set(43))
    #expect(store.state.count == 43)
    #expect(other.wrappedValue == 43)
    await store.send(.setLater(44)).finish()
    #expect(store.state.count == 44)
  }

  @Test func aDirectWriteInAReducerAndInAnAssertionInATestStore() async {
    let store = TestStore(initialState: OldCounter.State()) { OldCounter() }
    let old: any OldSpelling = DirectAssignment()
    await store.send(.set(43)) { old.assign(43, to: &$0) }
    await store.send(.setLater(44))
    store.assert { $0.$count.withLock { $0 = 44 } }
  }

  @Test func aWrongDirectWriteInAnAssertionFailsWithTheDiff() async {
    let store = TestStore(initialState: OldCounter.State()) { OldCounter() }
    let old: any OldSpelling = DirectAssignment()
    await withKnownIssue {
      await store.send(.set(43)) { old.assign(41, to: &$0) }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("41") && text.contains("43")
    }
  }
}
