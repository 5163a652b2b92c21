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
    await waiter.value
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
