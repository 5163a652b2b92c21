import Cascade
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

/// A feature whose actions and effects change shared state.
private struct Tally: Reducer {
  struct State: Equatable, Sendable {
    @Shared(.inMemory("tally")) var total = 0
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case add(Int)
    case addLater(Int)
    case added
    case addQuietly(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(amount):
      state.$total.withLock { $0 += amount }
      return .none
    case let .addLater(amount):
      return .run { [total = state.$total] send in
        total.withLock { $0 += amount }
        await send(.added)
      }
    case .added:
      state.log.append("added")
      return .none
    case let .addQuietly(amount):
      return .run { [total = state.$total] _ in total.withLock { $0 += amount } }
    }
  }
}

/// An effect that sends a step, changes shared state, then sends that it is done.
private struct Steps: Reducer {
  struct State: Equatable, Sendable {
    @Shared(.inMemory("steps")) var count = 0
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case start
    case step
    case done
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [count = state.$count] send in
        await send(.step)
        count.withLock { $0 += 1 }
        await send(.done)
      }
    case .step:
      state.log.append("step")
      return .none
    case .done:
      state.log.append("done")
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct SharedTestStoreTests {
  /// In a process where nothing of CascadeTesting has run yet, a `Shared` declared on the
  /// test's first line and the state of the test store made after it share one value. (They
  /// used to live in two storages, the process's and the test's, until the process's first test
  /// store or clock: a test passed or failed by what ran before it.)
  @Test func sharedStateDeclaredBeforeTheProcesssFirstTestStoreIsTheStores() async {
    await #expect(processExitsWith: .success) {
      @Shared(.inMemory("tally")) var total = 7
      let seen = await MainActor.run {
        TestStore(initialState: Tally.State()) { Tally() }.state.total
      }
      exit(seen == total ? EXIT_SUCCESS : EXIT_FAILURE)
    }
  }

  @Test func aSharedChangeBetweenTwoSendsBelongsToTheSecond() async {
    // Twenty times: the attribution once depended on how far the effect got meanwhile.
    for _ in 0..<20 {
      let store = TestStore(initialState: Steps.State()) { Steps() }
      store.state.$count.withLock { $0 = 0 }
      store.assert { $0.$count.withLock { $0 = 0 } }
      await store.send(.start)
      await store.receive(.step) { $0.log = ["step"] }
      await store.receive(.done) {
        $0.$count.withLock { $0 = 1 }
        $0.log = ["step", "done"]
      }
      await store.finish()
    }
  }

  @Test(arguments: [1, 2, 3])
  func eachCaseOfAParameterizedTestHasStorageOfItsOwn(value: Int) async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    #expect(store.state.total == 0)
    await store.send(.add(value)) { $0.$total.withLock { $0 = value } }
    #expect(store.state.total == value)
  }

  @Test func aSharedChangeIsAssertedInTheSendThatMadeIt() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.add(2)) { $0.$total.withLock { $0 = 2 } }
    await store.send(.add(3)) { $0.$total.withLock { $0 = 5 } }
    #expect(store.state.total == 5)
    await store.finish()
  }

  @Test func aSharedChangeFromAnEffectIsAssertedInTheReceiveAfterIt() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.addLater(4))
    await store.receive(.added) {
      $0.$total.withLock { $0 = 4 }
      $0.log = ["added"]
    }
    await store.finish()
  }

  @Test func anUnassertedSharedChangeFailsWithADiff() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.send(.add(2))
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("was not expected to change") && text.contains("−   total: 0")
        && text.contains("+   total: 2")
    }
    // Reported once: the next step starts from the live value (2, not the 0 it was expected
    // to stay), so adding one is expected to give 3.
    await store.send(.add(1)) { $0.$total.withLock { $0 += 1 } }
  }

  @Test func aWrongSharedExpectationFails() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.send(.add(2)) { $0.$total.withLock { $0 = 20 } }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("−   total: 20") && text.contains("+   total: 2")
    }
  }

  @Test func aSharedChangeNoStepAssertedFailsAtTheEnd() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.addQuietly(6)).finish()
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("Shared state changed after the last assertion")
        && text.contains("inMemory(\"tally\")") && text.contains("+ 6")
    }
  }

  @Test func aChangeFromOutsideTheStoreIsAssertedWithAssert() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    @Shared(.inMemory("tally")) var total = 0
    #expect($total.isSameReference(as: store.state.$total))  // the test's storage, shared
    $total.withLock { $0 = 9 }
    store.assert { $0.$total.withLock { $0 = 9 } }
    await store.finish()
  }

  @Test func skippedActionsTakeTheirSharedChangesWithThem() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.addLater(4))
    await store.skipReceivedActions()
    #expect(store.state.total == 4)
    // The expectation starts from 4, not from the 0 asserted before the skip.
    await store.send(.add(1)) { $0.$total.withLock { $0 += 1 } }
    await store.finish()
  }

  @Test func nonExhaustiveStoresCheckOnlyWhatTheTestAsserts() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.exhaustivity = .off
    await store.send(.add(2))
    await store.send(.addLater(1))
    await store.receive(.added) { $0.$total.withLock { $0 = 3 } }
    await store.finish()
  }

  /// The two cases of this test run at the same time (Swift Testing runs the cases of a
  /// parameterized test in parallel) and write the same in-memory key, each waiting until the
  /// other has written before it reads and writes again: a storage shared by running tests, or
  /// one handed to whichever test asked last, would show one case the other's value.
  @Test(arguments: [1, 2])
  func testsRunningTogetherHaveStorageOfTheirOwn(value: Int) async throws {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    #expect(store.state.total == 0)
    await store.send(.add(value)) { $0.$total.withLock { $0 += value } }
    await withDeadline("the other case of this test to write (do its cases run in parallel?)") {
      await bothCasesWrote.arrive()
    }
    await store.send(.add(value)) { $0.$total.withLock { $0 += value } }
    @Shared(.inMemory("tally")) var total = 0
    #expect(total == 2 * value)
    await store.finish()
  }

  @Test func testsTouchNoRealFileUnlessTheyAsk() throws {
    reportRuntimeWarningsAsTestFailures()
    let url = FileManager.default.temporaryDirectory.appending(path: "cascade-\(UUID()).json")
    @Shared(.fileStorage(url)) var count = 0
    $count.withLock { $0 = 1 }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    #expect(try SharedStorage.current.readFile(at: url) == Data("1".utf8))
  }
}

/// Where the two cases of `testsRunningTogetherHaveStorageOfTheirOwn` wait for each other: each
/// arrival returns once the other case of the same run has arrived too (or the task is
/// cancelled).
private let bothCasesWrote = Meeting()

private final class Meeting: Sendable {
  private let arrived = Guarded(0)

  func arrive() async {
    let mine = arrived.withLock { count in
      count += 1
      return count
    }
    let everyone = (mine + 1) / 2 * 2
    while arrived.withLock({ $0 }) < everyone, !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}
