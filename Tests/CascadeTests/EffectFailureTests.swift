import CascadeTesting
import Testing

@testable import Cascade

private struct Thrower: Reducer {
  struct State: Equatable, Sendable { var failure: String? }
  enum Action: Equatable, Sendable {
    case throwUnhandled, throwHandled
    case failed(String)
  }
  struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .throwUnhandled:
      return .run { _ in throw Failure() }
    case .throwHandled:
      return .run { _ in
        throw Failure()
      } catch: { error, send in
        await send(.failed("\(error)"))
      }
    case let .failed(message):
      state.failure = message
      return .none
    }
  }
}

/// An error an effect throws is never lost: its handler gets it, or a runtime warning names
/// the effect.
@MainActor
@Suite(.hangGuard)
struct EffectFailureTests {
  @Test func anUnhandledErrorIsAWarningNamingTheEffect() async {
    let store = Store(initialState: Thrower.State()) { Thrower() }
    let (_, warnings) = await RuntimeWarnings.capturing {
      await store.send(.throwUnhandled).finish()
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.fileID == "CascadeTests/EffectFailureTests.swift")
    #expect(warnings.first?.message.contains("disk on fire") == true)
    #expect(warnings.first?.message.contains("catch:") == true)
  }

  @Test func aHandledErrorReachesItsHandler() async {
    let store = Store(initialState: Thrower.State()) { Thrower() }
    let (_, warnings) = await RuntimeWarnings.capturing {
      await store.send(.throwHandled).finish()
    }
    #expect(warnings.isEmpty)
    #expect(store.failure == "disk on fire")
  }
}
