import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// A feature exercising everything a test store checks.
private struct Feature: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var text = ""
    var results: [String] = []
    var isLoading = false
  }
  enum Action: Sendable {
    case increment
    case load
    case loaded([String])
    case loadFailed(any Error)  // not Equatable: received by case path
    case listen
    case tick
    case searchChanged(String)
    case searched(String)
    case touchUnregistered
    case relay  // sends .increment synchronously: queued for the test during the send
  }
  enum CancelID { case listen, search }

  @Dependency(\.continuousClock) var clock
  @Dependency(SearchClient.self) var search

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .load:
      state.isLoading = true
      return .run { send in
        await send(.loaded(try await search.run("all")))
      } catch: { error, send in
        await send(.loadFailed(error))
      }
    case let .loaded(results):
      state.isLoading = false
      state.results = results
      return .none
    case .loadFailed:
      state.isLoading = false
      return .none
    case .listen:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.listen)
    case .tick:
      state.count += 1
      return .none
    case let .searchChanged(text):
      state.text = text
      return .run { send in await send(.searched(text)) }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
    case let .searched(text):
      state.results = [text]
      return .none
    case .touchUnregistered:
      @Dependency(Unregistered.self) var unregistered
      _ = unregistered
      return .none
    case .relay:
      return .send(.increment)
    }
  }
}

extension Feature.Action: Equatable {
  fileprivate static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.increment, .increment), (.load, .load), (.listen, .listen), (.tick, .tick),
      (.touchUnregistered, .touchUnregistered), (.loadFailed, .loadFailed), (.relay, .relay):
      true
    case let (.loaded(l), .loaded(r)): l == r
    case let (.searchChanged(l), .searchChanged(r)): l == r
    case let (.searched(l), .searched(r)): l == r
    default: false
    }
  }
}

private struct SearchClient: DependencyKey, Sendable {
  var run: @Sendable (String) async throws -> [String]
  static let liveValue = SearchClient { _ in [] }
  static let testValue = SearchClient(run: unimplemented("SearchClient.run"))
}

private struct Offline: Error {}

@MainActor
@Suite(.hangGuard)
struct TestStoreTests {
  fileprivate func makeStore(
    clock: TestClock = TestClock(),
    results: [String] = ["a", "b"]
  ) -> TestStore<Feature.State, Feature.Action> {
    TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
      $0[SearchClient.self] = SearchClient { _ in results }
    }
  }

  // MARK: Passing tests

  @Test func sendReceiveAndFinish() async {
    let store = makeStore()
    await store.send(.increment) { $0.count = 1 }
    await store.send(.load) { $0.isLoading = true }
    // The effect's action waits for the test: the state is not yet loaded.
    #expect(store.state.results.isEmpty)
    await store.receive(.loaded(["a", "b"])) {
      $0.isLoading = false
      $0.results = ["a", "b"]
    }
    await store.finish()
  }

  @Test func receiveByCaseForPayloadsThatAreNotEquatable() async {
    let store = makeStore()
    store.dependencies[SearchClient.self] = SearchClient { _ in throw Offline() }
    await store.send(.load) { $0.isLoading = true }
    await store.receive(Feature.Action.loadFailed) { $0.isLoading = false }
  }

  @Test func aTestClockDrivesTimeWithoutWaiting() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.searchChanged("s")) { $0.text = "s" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.searchChanged("se")) { $0.text = "se" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searched("se")) { $0.results = ["se"] }

    let listening = await store.send(.listen)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 2 }
    await listening.cancel()
    await store.finish()
  }

  @Test func assertChecksTheStateAgainstTheExpectation() async {
    let store = makeStore()
    store.assert { _ in }
    await store.send(.increment) { $0.count = 1 }
    store.assert { $0.count = 1 }
    // A wrong expectation fails, with the difference.
    withKnownIssue {
      store.assert { $0.count = 2 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("The state does not match the expectation")
        && text.contains("−   count: 2") && text.contains("+   count: 1")
    }
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.load)  // isLoading changed: not asserted, not a failure
    await store.send(.increment) { $0.count = 1 }
    await store.finish()  // waits for the load; its .loaded is reduced, not asserted
    #expect(store.state.results == ["a", "b"])
  }

  @Test func withExhaustivityAppliesOnlyInsideTheBlock() async {
    let store = makeStore()
    await store.withExhaustivity(.off) {
      await store.send(.load)  // isLoading changes: not asserted, not a failure
      await store.skipReceivedActions()
    }
    #expect(store.exhaustivity == .on)
    #expect(store.state.results == ["a", "b"])
    await withKnownIssue {
      await store.send(.increment)  // exhaustive again: the unasserted count fails
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("count: 1")
    }
  }

  @Test func withExhaustivityCanTurnItOnInANonExhaustiveTest() async {
    let store = makeStore()
    store.exhaustivity = .off
    let value = store.withExhaustivity(.on) { store.exhaustivity }
    #expect(value == .on)
    #expect(store.exhaustivity == .off)
    await store.send(.increment)
  }

  @Test func skippedAssertionsAreShownAsKnownIssues() async {
    let store = makeStore()
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.load)  // isLoading changes, unasserted: shown
    await store.finish()  // the skipped .loaded is shown as a known issue
    #expect(store.state.results == ["a", "b"])
    #expect(store.skippedAssertions.count == 2, "\(store.skippedAssertions)")
    #expect(store.skippedAssertions.first?.hasPrefix("state changes not asserted") == true)
    #expect(store.skippedAssertions.last?.hasPrefix("received .loaded") == true)
  }

  @Test func nonExhaustiveWithoutShowingSkipsSilently() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.load)
    await store.finish()
    #expect(store.skippedAssertions.isEmpty)
  }

  @Test func skipInFlightEffectsEndsTheTestCleanly() async {
    let store = makeStore()
    await store.send(.listen)
    #expect(store.runningEffectCount == 1)
    await store.skipInFlightEffects()
    // The listener was cancelled and has ended: nothing is left for the end of the test.
    #expect(store.runningEffectCount == 0)
    await store.finish()
  }

  // MARK: Failures, each one captured

  @Test func aWrongStateAssertionFailsWithADiff() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("A state change does not match the expectation")
        && text.contains("−   count: 2") && text.contains("+   count: 1")
        && issue.sourceLocation?.fileName == "TestStoreTests.swift"
    }
  }

  @Test func anUnassertedStateChangeFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("was not expected to change")
    }
  }

  @Test func anUnexpectedReceivedActionFailsWithADiff() async {
    let store = makeStore()
    await store.send(.load) { $0.isLoading = true }
    await withKnownIssue {
      await store.receive(.loaded(["z"]))
    } matching: { issue in
      // The diff's own lines, not the legend's `(Expected: −, Received: +)`.
      let lines = issue.comments.map(\.rawValue).joined().split(separator: "\n")
      return lines.contains { $0.contains("Received an unexpected action") }
        && lines.contains { $0.contains("−") && $0.contains("\"z\"") }
        && lines.contains { $0.contains("+") && $0.contains("\"a\"") }
    }
  }

  @Test func aMissingReceiveFailsAtFinish() async {
    let store = makeStore()
    await store.send(.load) { $0.isLoading = true }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("received 1 unexpected action")
    }
  }

  @Test func aMissingReceiveFailsWhenTheStoreIsReleased() async {
    await withKnownIssue {
      let store = makeStore()
      await store.send(.relay)  // .increment is waiting, and never received
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("never asserted")
    }
  }

  @Test func sendingWithActionsWaitingFails() async {
    let store = makeStore()
    await store.send(.relay)
    await withKnownIssue {
      await store.send(.load) { $0.isLoading = true }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("Must handle 1 received action")
    }
    await store.skipReceivedActions()
    await store.skipInFlightEffects()
  }

  @Test func anEffectStillRunningFailsAtTheSendThatStartedIt() async {
    let store = makeStore()
    let sendLine = #line + 1
    await store.send(.listen)
    await withKnownIssue {
      store.timeout = .milliseconds(50)
      await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("still running")
        && issue.sourceLocation?.line == sendLine
    }
  }

  @Test func aReceiveThatNeverComesFailsAfterTheTimeout() async {
    let store = makeStore()
    await store.send(.listen)  // sleeps on a clock nobody advances
    await withKnownIssue {
      await store.receive(.tick, timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no action arrived within")
    }
    await store.skipInFlightEffects()
  }

  @Test func aReceiveWithNoEffectRunningFailsAtOnce() async {
    let store = makeStore()
    store.timeout = .seconds(3_600)  // never waited for
    await withKnownIssue {
      await store.receive(.tick)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("but no effect is running")
    }
  }

  @Test func aDependencyWithoutATestValueFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.touchUnregistered)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("'Unregistered' was used in a test")
    }
  }

  @Test func anUnoverriddenEndpointFails() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await withKnownIssue {
      await store.send(.load) { $0.isLoading = true }
      await store.receive(Feature.Action.loadFailed) { $0.isLoading = false }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("'SearchClient.run'")
    }
  }

  @Test func nonExhaustiveStillFailsAWrongAssertion() async {
    let store = makeStore()
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.increment) { $0.count = 5 }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("−   count: 5")
    }
  }
}

/// A value a test swaps while a send is running.
private struct Greeting: DependencyKey, Sendable {
  var text: String
  static let liveValue = Greeting(text: "live")
  static let testValue = Greeting(text: "before")
}

/// Holds the test store, so that its reducer can change the store's dependencies mid-send.
@MainActor
private final class StoreHolder {
  var store: TestStore<[String], String>?
}

@MainActor
@Suite struct DependenciesChangedDuringASendTests {
  @Test func theRunningSendKeepsItsValuesAndTheNextSendSeesTheNewOnes() async {
    let holder = StoreHolder()
    let store = TestStore(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        @Dependency(Greeting.self) var greeting
        state.append("\(action): \(greeting.text)")
        if action == "swap", let store = holder.store {
          // The send publishes the store's box without retaining it: replacing the store's
          // dependencies must not free the box the send is still running with.
          weak let published = _BatchDependencies.current
          store.dependencies[Greeting.self] = Greeting(text: "after")
          #expect(published != nil)
          state.append("swap, later: \(greeting.text)")
        }
        return .none
      }
    }
    holder.store = store
    await store.send("swap") {
      $0 = ["swap: before", "swap, later: before"]
    }
    await store.send("next") {
      $0.append("next: after")
    }
    await store.finish()
  }
}
