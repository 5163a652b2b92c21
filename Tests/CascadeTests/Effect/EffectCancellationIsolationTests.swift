import CascadeTesting
import Testing

@testable import Cascade

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
