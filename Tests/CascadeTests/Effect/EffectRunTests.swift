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

/// An effect that lets its `send` escape: it hands it out and returns at once.
private struct Escaper: Reducer {
  struct State: Equatable, Sendable { var late = 0 }
  enum Action: Equatable, Sendable { case escape, late }
  let escaped: Guarded<Send<Action>?>
  static let runLine: UInt = #line + 6

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .escape:
      let escaped = escaped
      return .run { send in escaped.withLock { $0 = send } }
    case .late:
      state.late += 1
      return .none
    }
  }
}

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

  // TCA's testRunEscapeFailure: an action sent through a `send` that outlived its `.run` is
  // reported (debug builds), naming the `.run`; the store still reduces it.
  @Test func aSendAfterTheOperationReturnedIsReportedInAStore() async {
    let escaped = Guarded<Send<Escaper.Action>?>(nil)
    let store = Store(initialState: Escaper.State()) { Escaper(escaped: escaped) }
    let (_, duringTheEffect) = await RuntimeWarnings.capturing {
      await store.send(.escape).finish()
    }
    #expect(duringTheEffect.isEmpty)
    let send = try! #require(escaped.withLock { $0 })
    let (_, warnings) = await RuntimeWarnings.capturing { send(.late) }
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.contains("after its operation had returned: ") == true)
    #expect(warnings.first?.message.contains("late") == true, "\(warnings)")
    #expect(warnings.first?.fileID.hasSuffix("EffectRunTests.swift") == true)
    #expect(warnings.first?.line == Escaper.runLine)
    #expect(store.state.late == 1)
  }

  @Test func aSendAfterTheOperationReturnedFailsATestStoreTest() async {
    let escaped = Guarded<Send<Escaper.Action>?>(nil)
    let store = TestStore(initialState: Escaper.State()) { Escaper(escaped: escaped) }
    await store.send(.escape)
    await store.finish()
    let send = try! #require(escaped.withLock { $0 })
    withKnownIssue {
      send(.late)
    } matching: { issue in
      issue.description.contains("after its operation had returned")
    }
    await store.receive(.late) { $0.late = 1 }
  }

  @Test func anUnhandledErrorIsAWarningNamingTheEffect() async {
    let store = Store(initialState: Thrower.State()) { Thrower() }
    let (_, warnings) = await RuntimeWarnings.capturing {
      await store.send(.throwUnhandled).finish()
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.fileID == "CascadeTests/EffectRunTests.swift")
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
