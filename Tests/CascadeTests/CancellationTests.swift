import Testing

@testable import Cascade

/// Contracts 2 and 5: StoreTask, cancellation by id, per-store namespacing, teardown.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct CancellationTests {
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
}
