import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// How a `.run` effect's task is made and ended (it starts on the main actor, after the job
/// that sent): its dependencies hold across every hop, thousands can be in flight at once, and
/// cancelling a send stops its tasks whenever and wherever it happens: before they start, or
/// from another thread while its cascade is still starting more. (A `TestStore` runs an effect
/// up to its first suspension within `send`, so the cancellation cases are a real store's.)
private struct Burst: Reducer {
  struct State: Equatable, Sendable {
    var done = 0
    var seen: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case burst(Int)
    case burstCancellable(Int)
    case cancelBurst
    case sleepers(Int)
    case spawner(Int)
    case done
    case readTwice
    case seen(Int)
  }
  enum CancelID { case burst }

  @Dependency(\.testNumber) var number

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .burst(count):
      return .merge((0..<count).map { _ in .run { send in await send(.done) } })
    case let .burstCancellable(count):
      // Every second effect finishes at once; the others wait until cancelled.
      return .merge(
        (0..<count).map { index in
          index.isMultiple(of: 2)
            ? .run { send in await send(.done) }
            : .run { send in
              try await Task.sleep(for: .seconds(60))
              await send(.done)
            }
            .cancellable(id: CancelID.burst)
        })
    case .cancelBurst:
      return .cancel(id: CancelID.burst)
    case let .sleepers(count):
      // Effects that only a cancellation of their send ends in time.
      return .merge(
        (0..<count).map { _ in
          .run { send in
            try await Task.sleep(for: .seconds(60))
            await send(.done)
          }
        })
    case let .spawner(count):
      // Each `.sleepers(1)` starts its sleeper in this effect's cascade, on the main actor.
      return .run { send in
        for _ in 0..<count { await send(.sleepers(1)) }
      }
    case .done:
      state.done += 1
      return .none
    case .readTwice:
      return .run { send in
        await send(.seen(number))
        // Back from the main actor: the effect's dependencies still hold.
        await send(.seen(number))
      }
    case let .seen(value):
      state.seen.append(value)
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct RunTaskLifecycleTests {
  @Test func thousandsOfEffectsInFlightAllFinishAndAreForgotten() async {
    let store = Store(initialState: Burst.State()) { Burst() }
    await store.send(.burst(3_000)).finish()
    #expect(store.state.done == 3_000)
    #expect(store.activeEffectCount == 0)
  }

  @Test func cancellingSomeOfThousandsInFlightEndsExactlyThose() async {
    let store = Store(initialState: Burst.State()) { Burst() }
    let task = store.send(.burstCancellable(2_000))
    // Until the effects that finish at once have been told apart from those that wait.
    await withDeadline("half of the burst to end, the other half to wait") {
      while store.state.done < 1_000 || store.activeEffectCount > 1_000, !Task.isCancelled {
        await Task.yield()
      }
    }
    #expect(store.activeEffectCount == 1_000)
    await store.send(.cancelBurst).finish()
    await task.finish()
    #expect(store.state.done == 1_000)
    #expect(store.activeEffectCount == 0)
  }

  @Test func aCancelFromAnotherThreadRacingTheRegistrationStillEndsEverything() async {
    let store = Store(initialState: Burst.State()) { Burst() }
    for round in 0..<40 {
      // The spawner keeps starting sleepers in its send's cascade on the main actor while
      // another thread cancels that cascade: the cancellation lands before, between or after
      // a sleeper's task is made and registered.
      let task = store.send(.spawner(100))
      let cancelling = Task.detached {
        for _ in 0..<(round % 10) * 10 { await Task.yield() }
        task.cancel()
      }
      await task.finish()  // a sleeper the cancellation missed would hold this for a minute
      await cancelling.value
      #expect(task.isCancelled)
      #expect(store.activeEffectCount == 0)
    }
    #expect(store.state.done == 0)
  }

  @Test func cancellingASendBeforeItsTasksStartStopsThem() async {
    let store = Store(initialState: Burst.State()) { Burst() }
    let task = store.send(.burst(10))
    // The tasks exist but cannot have started: this job still holds the main actor.
    task.cancel()
    await task.finish()
    #expect(store.state.done == 0)
    #expect(store.activeEffectCount == 0)
  }

  @Test func anEffectKeepsItsDependenciesAcrossEveryHop() async {
    let store = Store(initialState: Burst.State()) {
      Burst()
    } withDependencies: {
      $0.testNumber = 7
    }
    await store.send(.readTwice).finish()
    #expect(store.state.seen == [7, 7])

    let testStore = TestStore(initialState: Burst.State()) {
      Burst()
    } withDependencies: {
      $0.testNumber = 7
    }
    await testStore.send(.readTwice)
    await testStore.receive(.seen(7)) { $0.seen = [7] }
    await testStore.receive(.seen(7)) { $0.seen = [7, 7] }
  }
}
