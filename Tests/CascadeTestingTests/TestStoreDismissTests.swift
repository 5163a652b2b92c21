import Cascade
import CascadeTesting
import Testing

/// A meeting that ends itself after three ticks, or when its end button is tapped, by
/// dismissing itself: SyncUps' RecordMeeting in miniature.
private struct Meeting: Reducer {
  struct State: Equatable {
    var seconds = 0
    var hasEnded = false
  }
  enum Action: Equatable {
    case start
    case tick
    case endTapped
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
    case .tick:
      state.seconds += 1
      guard state.seconds == 3 else { return .none }
      state.hasEnded = true
      return .run { _ in await dismiss() }
    case .endTapped:
      state.hasEnded = true
      return .run { _ in await dismiss() }
    }
  }
}

/// A feature at the root of a test store that dismisses itself: the test store plays the parent
/// that presented it, as TCA's does (`isDismissed`, the effects in flight ended).
@MainActor
@Suite(.hangGuard)
struct TestStoreDismissTests {
  private func makeStore(_ clock: TestClock) -> TestStore<Meeting.State, Meeting.Action> {
    TestStore(initialState: Meeting.State()) {
      Meeting()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aFeatureThatDismissesItselfEndsItsEffectsAndTheTest() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.start)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.seconds = 1 }
    await store.receive(.tick) { $0.seconds = 2 }
    #expect(!store.isDismissed)
    await store.receive(.tick) {
      $0.seconds = 3
      $0.hasEnded = true
    }
    #expect(store.isDismissed)
    // The timer was ended with the dismissal: no finish() needed, nothing left running.
    await clock.advance(by: .seconds(5))
  }

  @Test func anActionSentAfterTheDismissalFails() async {
    let store = makeStore(TestClock())
    await store.send(.endTapped) { $0.hasEnded = true }
    #expect(store.isDismissed)
    let line = #line + 2
    await withKnownIssue {
      await store.send(.start)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("the feature dismissed itself")
        && issue.sourceLocation?.line == line
    }
    #expect(store.state == Meeting.State(seconds: 0, hasEnded: true))
  }

  @Test func aTestsOwnDismissWins() async {
    let dismissed = Guarded(false)
    let store = TestStore(initialState: Meeting.State()) {
      Meeting()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.withLock { $0 = true } }
    }
    await store.send(.endTapped) { $0.hasEnded = true }
    await store.finish()
    #expect(dismissed.withLock { $0 })
    #expect(!store.isDismissed)
  }

  /// A real root store has no parent to dismiss it: it says so, and its effects go on.
  @Test func aRealRootStoreOnlyWarns() async {
    reportRuntimeWarningsAsTestFailures()
    let store = Store(initialState: Meeting.State()) { Meeting() }
    await withKnownIssue {
      await store.send(.endTapped).finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("this feature was not presented")
    }
    #expect(store.state.hasEnded)
  }
}
