import CascadeTesting
import Testing

@testable import Cascade

/// `.run`: what it sends comes back, what it throws goes to its handler, and cancellation is
/// never an error.
private struct Runner: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable {
    case tapped, throwing, cancelledThrowing, response, failed
  }
  struct Failure: Error {}

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tapped:
      return .run { send in await send(.response) }
    case .throwing:
      return .run { _ in
        throw Failure()
      } catch: { _, send in
        await send(.failed)
      }
    case .cancelledThrowing:
      return .run { send in
        throw CancellationError()
      } catch: { _, send in
        await send(.failed)  // never: cancellation is not an error
      }
    case .response, .failed:
      return .none
    }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct EffectRunTests {
  @Test func whatARunSendsIsReceived() async {
    let store = TestStore(initialState: Runner.State()) { Runner() }
    await store.send(.tapped)
    await store.receive(.response)
  }

  @Test func anErrorAThrowingRunThrowsGoesToItsHandler() async {
    let store = TestStore(initialState: Runner.State()) { Runner() }
    await store.send(.throwing)
    await store.receive(.failed)
  }

  @Test func cancellationIsNotHandedToTheHandlerNorReported() async {
    let store = Store(initialState: Runner.State()) { Runner() }
    let (_, warnings) = await RuntimeWarnings.capturing {
      await store.send(.cancelledThrowing).finish()
    }
    #expect(warnings.isEmpty)
    let testStore = TestStore(initialState: Runner.State()) { Runner() }
    await testStore.send(.cancelledThrowing)
    await testStore.finish()  // `.failed` never arrives
  }
}
