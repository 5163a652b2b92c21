import CascadeTestSupport
import CascadeTesting
import Observation
import Testing

@testable import Cascade

/// Contract 1: the FIFO send loop, no re-entrancy, no stack growth, one change per batch.
private struct Chain: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var count = 0
  }
  enum Action: Equatable, Sendable {
    case start, a, b, c, noop
    case countdown(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.log.append("start")
      return .merge(.send(.a), .send(.b))
    case .a:
      state.log.append("a")
      return .send(.c)
    case .b:
      state.log.append("b")
      return .none
    case .c:
      state.log.append("c")
      return .none
    case .noop:
      return .none
    case let .countdown(n):
      state.count += 1
      return n == 0 ? .none : .send(.countdown(n - 1))
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct StoreTests {
  @Test func synchronousEffectsJoinTheBatchInFIFOOrder() {
    let store = Store(initialState: Chain.State()) { Chain() }
    store.send(.start)
    // Breadth-first: .a and .b were queued by .start, then .c by .a.
    #expect(store.state.log == ["start", "a", "b", "c"])
  }

  @Test func aHundredThousandChainedActionsDoNotGrowTheStack() {
    let store = Store(initialState: Chain.State()) { Chain() }
    store.send(.countdown(100_000))
    #expect(store.count == 100_001)
  }

  @Test func observersSeeOneChangePerBatch() {
    let store = Store(initialState: Chain.State()) { Chain() }
    let changes = Box(0)
    let tracker = Tracker(changes: changes) { _ = store.state }
    tracker.track()
    store.send(.start)  // four actions, one batch
    #expect(changes.value == 1)
    store.send(.countdown(10))
    #expect(changes.value == 2)
  }

  /// Observation's observers hear one change each: a store tells the registrar only while
  /// someone has read its state since the last batch. An observer that reads again later, as
  /// a view does when it renders again, hears the next batch.
  @Test func anObserverThatReadsAgainLaterHearsTheNextBatch() {
    let store = Store(initialState: Chain.State()) { Chain() }
    let changes = Box(0)
    func observeOnce() {
      withObservationTracking {
        _ = store.state.count
      } onChange: {
        changes.update { $0 += 1 }
      }
    }
    observeOnce()
    store.send(.noop)
    store.send(.noop)  // nobody is registered: nothing to hear
    #expect(changes.value == 1)
    observeOnce()
    store.send(.countdown(0))
    #expect(changes.value == 2)
    // A read outside any observation (a test, a log line) registers nobody.
    _ = store.state.count
    store.send(.noop)
    #expect(changes.value == 2)
    observeOnce()
    store.send(.noop)
    #expect(changes.value == 3)
  }

  /// As TCA's `observe` helper does, an observer that registers again from a task after each
  /// change (a hop later, not inside the change) hears every batch, and one that stops
  /// registering hears nothing more.
  @Test func anObserverRegisteringAgainFromATaskHearsEveryBatchUntilItStops() async {
    let store = Store(initialState: Chain.State()) { Chain() }
    let observer = LaterObserver { store.state.count }
    observer.observe()
    var changes = observer.changes.stream.makeAsyncIterator()
    store.send(.countdown(0))
    await withDeadline("the observer to hear the first batch") {
      await changes.next(isolation: #isolation)
    }
    store.send(.countdown(1))
    await withDeadline("the observer to hear the second batch") {
      await changes.next(isolation: #isolation)
    }
    #expect(observer.seen == [0, 1, 3])
    observer.isStopped = true
    store.send(.countdown(0))
    await withDeadline("the third batch's change") { await changes.next(isolation: #isolation) }
    store.send(.countdown(0))
    #expect(observer.seen == [0, 1, 3])
    #expect(store.state.count == 5)
  }

  /// The `Observations` sequence registers anew for every element it produces: it sees each
  /// batch's result, also after batches during which nobody observed.
  @Test func theObservationsSequenceSeesEveryBatch() async {
    let store = Store(initialState: Chain.State()) { Chain() }
    var counts = Observations { store.state.count }.makeAsyncIterator()
    #expect(await withDeadline("the count 0") { await counts.next(isolation: #isolation) } == 0)
    store.send(.countdown(0))
    #expect(await withDeadline("the count 1") { await counts.next(isolation: #isolation) } == 1)
    store.send(.countdown(1))
    #expect(await withDeadline("the count 3") { await counts.next(isolation: #isolation) } == 3)
    store.send(.countdown(0))
    #expect(await withDeadline("the count 4") { await counts.next(isolation: #isolation) } == 4)
  }

  @Test func observationTracksScopedStoresToo() {
    struct Parent: Reducer {
      struct State { var chain = Chain.State() }
      enum Action { case chain(Chain.Action) }
      var body: some Reducer<State, Action> {
        Scope(state: \.chain, action: Action.chain) { Chain() }
      }
    }
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.chain, action: Parent.Action.chain)
    let changed = Box(false)
    withObservationTracking {
      _ = child.state.log
    } onChange: {
      changed.update { $0 = true }
    }
    child.send(.start)
    #expect(changed.value)
    #expect(child.state.log == ["start", "a", "b", "c"])
  }

  @Test func valuesStreamsDistinctValuesOncePerBatch() async {
    let store = Store(initialState: Chain.State()) { Chain() }
    let counts = store.values(of: \.count)
    var iterator = counts.makeAsyncIterator()
    // The current value first.
    #expect(await withDeadline("the count 0") { await iterator.next(isolation: #isolation) } == 0)
    store.send(.countdown(2))  // 1, 2, 3 within one batch: only 3 is seen
    store.send(.noop)  // no change: nothing emitted
    store.send(.countdown(0))
    #expect(await withDeadline("the count 3") { await iterator.next(isolation: #isolation) } == 3)
    #expect(await withDeadline("the count 4") { await iterator.next(isolation: #isolation) } == 4)
  }

  @Test func valuesEndsWhenTheIteratingTaskIsCancelled() async {
    let store = Store(initialState: Chain.State()) { Chain() }
    let started = Latch()
    let consumer = Task { @MainActor in
      var seen: [Int] = []
      for await count in store.values(of: \.count) {
        seen.append(count)
        started.signal()
      }
      return seen
    }
    await started.wait(for: 1)
    consumer.cancel()
    let seen = await withDeadline("the cancelled consumer to end", resultOf: consumer)
    #expect(seen?.get() == [0])
  }

  @Test func reducerBodyIsBuiltOnceByTheStore() {
    let evaluations = Box(0)
    struct Counting: Reducer {
      let evaluations: Box<Int>
      var body: some Reducer<Chain.State, Chain.Action> {
        let _ = evaluations.update { $0 += 1 }
        Chain()
      }
    }
    let store = Store(initialState: Chain.State()) { Counting(evaluations: evaluations) }
    for _ in 0..<100 { store.send(.countdown(0)) }
    #expect(store.count == 100)
    #expect(evaluations.value == 1)
  }

  @Test func dynamicMemberLookupReadsState() {
    let store = Store(initialState: Chain.State(count: 7)) { Chain() }
    #expect(store.count == 7)
    #expect(store.log.isEmpty)
  }

  @Test func anActionSentWhileTheStoreIsReducingJoinsTheBatchAfterTheCurrentOnes() {
    let store = Store(initialState: Chain.State()) { Chain() }
    // An observer that sends as soon as the state changes: it fires inside the batch.
    let sent = Box(false)
    withObservationTracking {
      _ = store.state.log
    } onChange: {
      MainActor.assumeIsolated {
        guard !sent.value else { return }
        sent.update { $0 = true }
        store.send(.b)
      }
    }
    store.send(.start)
    // First-in, first-out in the order of the sends, and never re-entrant: the action being
    // sent comes first; the observer (told as the batch begins) sent `.b` before `.start`'s
    // reducer queued `.a` and `.b`; all of it in the one batch.
    #expect(store.log == ["start", "b", "a", "b", "c"])
  }

  @Test func aSubscriptionReceivesTheEventsAnotherActionCauses() async {
    let feed = Feed()
    let store = TestStore(initialState: Feed.State()) { feed }
    await store.send(.subscribe)
    await store.send(.tapped)
    await store.receive(.increment) { $0.count = 1 }
    await store.send(.tapped)
    await store.receive(.increment) { $0.count = 2 }
    await store.send(.unsubscribe)
    await store.finish()

    let realFeed = Feed()
    let real = Store(initialState: Feed.State()) { realFeed }
    real.send(.subscribe)
    real.send(.tapped)
    _ = await withDeadline("the count 1") { await real.values(of: \.count).first { $0 == 1 } }
    real.send(.tapped)
    _ = await withDeadline("the count 2") { await real.values(of: \.count).first { $0 == 2 } }
    await real.send(.unsubscribe).finish()
    #expect(real.count == 2)
  }

  @Test func anImmediatelyFinishingEffectLeavesNothingRegistered() async {
    let store = Store(initialState: Chain.State()) { Chain() }
    store.send(.start)
    #expect(store.activeEffectCount == 0)
    let feed = Feed()
    let real = Store(initialState: Feed.State()) { feed }
    await real.send(.tapped).finish()
    #expect(real.activeEffectCount == 0)
  }

  /// `finish()` runs on the caller's actor: with nothing left to wait for it returns without
  /// suspending, so work queued behind the caller on the main actor has not run yet.
  @Test func finishingASendWithNothingRunningNeverLeavesTheMainActor() async {
    let store = Store(initialState: Feed.State()) { Feed() }
    let finished = store.send(.tapped)
    await finished.finish()
    for task in [store.send(.increment), finished] {
      let queuedBehind = Box(false)
      Task { @MainActor in queuedBehind.update { $0 = true } }
      await task.finish()
      #expect(!queuedBehind.value)
      await Task.yield()
    }
  }
}

/// A subscription to an outside stream of events, and an action whose effect emits one.
private struct Feed: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case subscribe, unsubscribe, tapped, increment }
  let events = AsyncStream<Void>.makeStream()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .subscribe:
      return .run { [stream = events.stream] send in
        for await _ in stream { await send(.increment) }
      }
      .cancellable(id: "feed")
    case .unsubscribe:
      return .cancel(id: "feed")
    case .tapped:
      return .run { [continuation = events.continuation] _ in continuation.yield() }
    case .increment:
      state.count += 1
      return .none
    }
  }
}

extension Chain.State {
  init(count: Int) { self.count = count }
}

/// Re-registers for observation as soon as it fires, as SwiftUI does: every change in a batch
/// would be counted.
@MainActor
private final class Tracker: Sendable {
  let changes: Box<Int>
  let read: @MainActor () -> Void

  init(changes: Box<Int>, read: @escaping @MainActor () -> Void) {
    self.changes = changes
    self.read = read
  }

  func track() {
    withObservationTracking {
      read()
    } onChange: {
      self.changes.update { $0 += 1 }
      MainActor.assumeIsolated { self.track() }
    }
  }
}

/// Registers for observation again from a task after each change it hears (as TCA's `observe`
/// helper does), until it is stopped; says when it has heard a change.
@MainActor
private final class LaterObserver: Sendable {
  let read: @MainActor () -> Int
  let changes = AsyncStream<Void>.makeStream()
  var seen: [Int] = []
  var isStopped = false

  init(read: @escaping @MainActor () -> Int) { self.read = read }

  func observe() {
    guard !isStopped else { return }
    withObservationTracking {
      seen.append(read())
    } onChange: {
      Task { @MainActor in
        self.observe()
        self.changes.continuation.yield()
      }
    }
  }
}
