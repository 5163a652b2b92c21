import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// Contracts 2 and 5: StoreTask, cancellation by id, per-store namespacing, teardown.
@MainActor
@Suite(.hangGuard)
struct EffectCancellationTests {
  @Test func cancelByID() async {
    let effect = LongEffect()
    let store = Store(initialState: Listener.State()) { Listener(effect: effect) }
    let task = store.send(.listen("radio", cancelInFlight: false))
    await effect.started.wait(for: 1)
    #expect(store.activeEffectCount == 1)
    store.send(.stop("radio"))
    await task.finish()
    #expect(effect.ended.count == 1)
    #expect(store.activeEffectCount == 0)
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async {
    let effect = LongEffect()
    let store = Store(initialState: Listener.State()) { Listener(effect: effect) }
    let first = store.send(.listen("radio", cancelInFlight: true))
    await effect.started.wait(for: 1)
    let second = store.send(.listen("radio", cancelInFlight: true))
    await first.finish()
    #expect(effect.ended.count == 1)
    await effect.started.wait(for: 2)
    #expect(store.activeEffectCount == 1)
    second.cancel()
    await second.finish()
    #expect(effect.ended.count == 2)
  }

  @Test func withoutCancelInFlightBothRunAndOneCancelStopsBoth() async {
    let effect = LongEffect()
    let store = Store(initialState: Listener.State()) { Listener(effect: effect) }
    let first = store.send(.listen("radio", cancelInFlight: false))
    let second = store.send(.listen("radio", cancelInFlight: false))
    await effect.started.wait(for: 2)
    #expect(store.activeEffectCount == 2)
    store.send(.stop("radio"))
    await first.finish()
    await second.finish()
    #expect(effect.ended.count == 2)
  }

  @Test func twoStoresNeverCancelEachOther() async {
    let effectA = LongEffect()
    let effectB = LongEffect()
    let storeA = Store(initialState: Listener.State()) { Listener(effect: effectA) }
    let storeB = Store(initialState: Listener.State()) { Listener(effect: effectB) }
    let taskA = storeA.send(.listen("radio", cancelInFlight: true))
    let taskB = storeB.send(.listen("radio", cancelInFlight: true))
    await effectA.started.wait(for: 1)
    await effectB.started.wait(for: 1)
    storeB.send(.stop("radio"))
    await taskB.finish()
    #expect(effectB.ended.count == 1)
    #expect(effectA.ended.count == 0)
    #expect(storeA.activeEffectCount == 1)
    taskA.cancel()
    await taskA.finish()
  }

  @Test func storeTaskCancelStopsTransitiveEffects() async {
    struct Relay: Reducer {
      struct State: Sendable {}
      enum Action: Sendable { case start, relayed }
      let effect: LongEffect
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start: .run { send in await send(.relayed) }
        case .relayed: effect.run()
        }
      }
    }
    let effect = LongEffect()
    let store = Store(initialState: Relay.State()) { Relay(effect: effect) }
    let task = store.send(.start)
    await effect.started.wait(for: 1)  // started by the action the first effect sent
    task.cancel()
    #expect(task.isCancelled)
    await task.finish()
    #expect(effect.ended.count == 1)
    #expect(store.activeEffectCount == 0)
  }

  @Test func cancellingTheTaskThatAwaitsFinishCancelsTheEffects() async {
    let effect = LongEffect()
    let store = Store(initialState: Listener.State()) { Listener(effect: effect) }
    let storeTask = store.send(.listenForever)
    let waiter = Task { await storeTask.finish() }
    await effect.started.wait(for: 1)
    waiter.cancel()
    _ = await withDeadline("the cancelled finish() to return", valueOf: waiter)
    await effect.ended.wait(for: 1)
    #expect(effect.ended.count == 1)
  }

  @Test func releasingTheRootStoreCancelsItsEffects() async {
    let effect = LongEffect()
    weak var weakStore: Store<Listener.State, Listener.Action>?
    do {
      let store = Store(initialState: Listener.State()) { Listener(effect: effect) }
      weakStore = store
      store.send(.listenForever)
      store.send(.listen("radio", cancelInFlight: false))
      let child = store.scope(state: \.self, action: { $0 })
      child.send(.listenForever)
      await effect.started.wait(for: 3)
    }
    #expect(weakStore == nil)
    // No wall clock: this resumes exactly when the third task has run its `defer`.
    await effect.ended.wait(for: 3)
    #expect(effect.ended.count == 3)
  }

  @Test func aCancelledEffectCannotSendLateActions() async {
    struct Late: Reducer {
      struct State: Equatable, Sendable { var received = false }
      enum Action: Sendable { case start, late }
      let gate: Latch
      let finished: Latch
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .run { [gate, finished] send in
            defer { finished.signal() }
            await gate.wait(for: 1)
            await send(.late)  // the task is cancelled by now: dropped
          }
        case .late:
          state.received = true
          return .none
        }
      }
    }
    let (gate, finished) = (Latch(), Latch())
    let store = Store(initialState: Late.State()) { Late(gate: gate, finished: finished) }
    let task = store.send(.start)
    task.cancel()
    gate.signal()
    await finished.wait(for: 1)
    await task.finish()
    #expect(store.received == false)
  }

  @Test func cancellingBeforeADelayedEffectFiresDropsIt() async {
    let store = TestStore(initialState: Delayed.State()) { Delayed(clock: clock) }
    await store.send(.start(2, id: "a"))
    await clock.advance(by: .seconds(1))
    await store.send(.cancel("a"))
    await clock.run()
    await store.finish()  // `.value(1)` never arrives
  }

  @Test func aFinishedOrCancelledEffectLeavesNothingRegistered() async {
    let store = Store(initialState: Delayed.State()) { Delayed(clock: clock) }
    await store.send(.noop).finish()
    #expect(store.activeEffectCount == 0)
    let task = store.send(.start(1, id: "a"))
    #expect(store.activeEffectCount == 1)
    await clock.advance(by: .seconds(2))
    await task.finish()
    #expect(store.activeEffectCount == 0)
    let cancelled = store.send(.start(2, id: "b"))
    store.send(.cancel("b"))
    await cancelled.finish()
    #expect(store.activeEffectCount == 0)
    #expect(store.delivered == [1])
  }

  @Test func aDoublyCancellableEffectIsCancelledByItsID() async {
    let effect = LongEffect()
    struct Double: Reducer {
      struct State: Sendable {}
      enum Action: Sendable { case start, stop }
      let effect: LongEffect
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start: effect.run().cancellable(id: "id").cancellable(id: "id")
        case .stop: .cancel(id: "id")
        }
      }
    }
    let store = Store(initialState: Double.State()) { Double(effect: effect) }
    let task = store.send(.start)
    await effect.started.wait(for: 1)
    store.send(.stop)
    await task.finish()
    #expect(effect.ended.count == 1)
  }

  @Test func cancellingAfterCompletionChangesNothing() async {
    let store = Store(initialState: Delayed.State()) { Delayed(clock: clock) }
    let task = store.send(.start(1, id: "a"))
    await clock.advance(by: .seconds(1))
    await task.finish()
    await store.send(.cancel("a")).finish()
    #expect(store.delivered == [1])
  }

  @Test func manyEffectsAndCancelsAcrossIDsLeaveNothingRegistered() async {
    let store = Store(initialState: Delayed.State()) { Delayed(clock: clock) }
    var tasks: [StoreTask] = []
    for index in 1...1_000 {
      tasks.append(store.send(.start(index % 7 + 1, id: "\(index % 10)")))
      if index.isMultiple(of: 3) { tasks.append(store.send(.cancel("\(index % 10)"))) }
    }
    await clock.run()
    for task in tasks { await task.finish() }
    #expect(store.activeEffectCount == 0)
  }

  @Test func aThousandNestedCancellablesAreCancelledByTheirID() async {
    let effect = LongEffect()
    struct Nested: Reducer {
      struct State: Sendable {}
      enum Action: Sendable { case start, stop }
      let effect: LongEffect
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          var nested: Effect<Action> = effect.run().cancellable(id: "id")
          for _ in 1...1_000 { nested = nested.cancellable(id: "id") }
          return nested
        case .stop:
          return .cancel(id: "id")
        }
      }
    }
    let store = Store(initialState: Nested.State()) { Nested(effect: effect) }
    let task = store.send(.start)
    await effect.started.wait(for: 1)
    store.send(.stop)
    await task.finish()
    #expect(store.activeEffectCount == 0)
  }

  @Test func effectsSharingAnIDEachDeliver() async {
    let store = Store(initialState: Delayed.State()) { Delayed(clock: clock) }
    let first = store.send(.start(1, id: "id"))
    let second = store.send(.start(2, id: "id"))
    await clock.advance(by: .seconds(1))
    await first.finish()
    #expect(store.delivered == [1])
    await clock.advance(by: .seconds(1))
    await second.finish()
    #expect(store.delivered == [1, 2])
  }

  @Test func aMergeInsideACancellableDeliversEverything() async {
    struct Merged: Reducer {
      struct State: Equatable, Sendable { var delivered: [Int] = [] }
      enum Action: Equatable, Sendable {
        case start
        case value(Int)
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          let inner = Effect<Action>.merge(.send(.value(1)), .send(.value(2)))
          return inner.cancellable(id: 1).cancellable(id: 2)
        case let .value(value):
          state.delivered.append(value)
          return .none
        }
      }
    }
    let store = Store(initialState: Merged.State()) { Merged() }
    await store.send(.start).finish()
    #expect(store.delivered == [1, 2])
  }

  @Test func cancellingSomeIDsLeavesTheOthers() async {
    let store = Store(initialState: Delayed.State()) { Delayed(clock: clock) }
    let tasks = [
      store.send(.start(1, id: "A")), store.send(.start(2, id: "B")),
      store.send(.start(3, id: "C")),
    ]
    store.send(.cancelMany(["A", "C"]))
    await clock.advance(by: .seconds(3))
    for task in tasks { await task.finish() }
    #expect(store.delivered == [2])
  }

  let clock = TestClock()
}

/// Effects that deliver their value after that many seconds of the test clock, by id.
private struct Delayed: Reducer {
  struct State: Equatable, Sendable { var delivered: [Int] = [] }
  enum Action: Equatable, Sendable {
    case start(Int, id: String)
    case cancel(String)
    case cancelMany([String])
    case value(Int)
    case noop
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .start(value, id):
      return .run { [clock, deadline = clock.now.advanced(by: .seconds(value))] send in
        try await clock.sleep(until: deadline)
        await send(.value(value))
      }
      .cancellable(id: id)
    case let .cancel(id):
      return .cancel(id: id)
    case let .cancelMany(ids):
      return .merge(ids.map { Effect<Action>.cancel(id: $0) })
    case let .value(value):
      state.delivered.append(value)
      return .none
    case .noop:
      return .none
    }
  }
}

// MARK: - Test stores running at the same time

/// A long-living effect, cancellable by id, that answers once before it waits.
private struct Feature: Reducer {
  struct State: Equatable, Sendable { var value = 0 }
  enum Action: Equatable, Sendable {
    case start, stop
    case response(Int)
  }
  enum CancelID { case longLiving }
  var ended = Latch()
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [ended] send in
        defer { ended.signal() }
        await send(.response(42))
        let (stream, _) = AsyncStream<Never>.makeStream()
        for await _ in stream {}
      }
      .cancellable(id: CancelID.longLiving, cancelInFlight: true)
    case .stop:
      return .cancel(id: CancelID.longLiving)
    case let .response(value):
      state.value = value
      return .none
    }
  }
}

/// Test stores running at the same time never share cancellation ids: each test cancels its
/// own long-living effect and nobody else's.
@MainActor
@Suite(.hangGuard)
struct EffectCancellationIsolationTests {
  @Test(arguments: 1...4)
  func concurrentTestStoresCancelOnlyTheirOwnEffects(_: Int) async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.start)
    await store.receive(.response(42)) { $0.value = 42 }
    await store.send(.stop)
    await store.finish()
  }

  @Test func twoTestStoresInOneTestAreIsolated() async {
    let (firstFeature, secondFeature) = (Feature(), Feature())
    let first = TestStore(initialState: Feature.State()) { firstFeature }
    let second = TestStore(initialState: Feature.State()) { secondFeature }
    await first.send(.start)
    await second.send(.start)
    await first.receive(.response(42)) { $0.value = 42 }
    await second.receive(.response(42)) { $0.value = 42 }
    await first.send(.stop)
    await first.finish()
    #expect(firstFeature.ended.count == 1)
    #expect(secondFeature.ended.count == 0)  // still listening
    await second.send(.stop)
    await second.finish()
  }
}

// MARK: - A parent and its children cancelling one id

// Parity with TCA's PresentationReducerTests, the cancellation-id behaviours between levels:
// a parent cancelling an id reaches the effects its children started with that id
// (testNavigation_cancelID_parentCancelTwoChildren), and a child cannot cancel its parent's
// effect (testNavigation_cancelID_childCannotCancelParent). Checked for presented children and
// stack screens, in a TestStore and a real Store.

/// Two presented tickers and a stack of tickers under one parent, which can cancel the tickers'
/// id itself and start an effect of its own under that same id.
private struct Levels: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var first: Ticker.State?
    @PresentationState var second: Ticker.State?
    var path = StackState<Ticker.State>()
    var parentTicks = 0
  }
  enum Action: Equatable, Sendable {
    case first(PresentationAction<Ticker.Action>)
    case second(PresentationAction<Ticker.Action>)
    case path(StackActionOf<Ticker>)
    case presentBoth
    case push
    case stopTickers
    case startOwnTick
    case ownTick
  }
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .presentBoth:
        state.first = Ticker.State()
        state.second = Ticker.State()
      case .push:
        state.path.append(Ticker.State())
      case .stopTickers:
        return .cancel(id: Ticker.CancelID.tick)
      case .startOwnTick:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.ownTick)
        }
        .cancellable(id: Ticker.CancelID.tick)
      case .ownTick:
        state.parentTicks += 1
      case .first, .second, .path:
        break
      }
      return .none
    }
    .ifLet(\.$first, action: Action.first) { Ticker() }
    .ifLet(\.$second, action: Action.second) { Ticker() }
    .forEach(\.path, action: Action.path) { Ticker() }
  }
}

@MainActor
@Suite(.hangGuard)
struct CancellationAcrossLevelsTests {
  let clock = TestClock()

  private func testStore() -> TestStore<Levels.State, Levels.Action> {
    TestStore(initialState: Levels.State()) {
      Levels()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aParentCancellingAnIDEndsThatIDInEveryChildBelowIt() async {
    let store = testStore()
    await store.send(.presentBoth) {
      $0.first = Ticker.State()
      $0.second = Ticker.State()
    }
    await store.send(.push) { $0.path[id: 0] = Ticker.State() }
    await store.send(.first(.presented(.start)))
    await store.send(.second(.presented(.start)))
    await store.send(.path(.element(id: 0, action: .start)))
    await store.send(.stopTickers)
    await clock.advance(by: .seconds(1))
    await store.finish()  // no tick arrives from any child
  }

  @Test func aChildCannotCancelItsParentsEffectWithTheSameID() async {
    let store = testStore()
    await store.send(.presentBoth) {
      $0.first = Ticker.State()
      $0.second = Ticker.State()
    }
    await store.send(.startOwnTick)
    await store.send(.first(.presented(.cancel)))
    await clock.advance(by: .seconds(1))
    await store.receive(.ownTick) { $0.parentTicks = 1 }
    await store.finish()
  }

  @Test func aRealStoreAgrees() async {
    let store = Store(initialState: Levels.State()) {
      Levels()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.presentBoth)
    store.send(.push)
    var tasks = [
      store.send(.first(.presented(.start))), store.send(.second(.presented(.start))),
      store.send(.path(.element(id: 0, action: .start))),
    ]
    store.send(.stopTickers)
    tasks.append(store.send(.startOwnTick))
    store.send(.second(.presented(.cancel)))  // cannot reach the parent's own tick
    await clock.advance(by: .seconds(1))
    for task in tasks { await task.finish() }
    #expect(store.state.first?.ticks == 0)
    #expect(store.state.second?.ticks == 0)
    #expect(store.state.path[id: 0]?.ticks == 0)
    #expect(store.state.parentTicks == 1)
  }
}
