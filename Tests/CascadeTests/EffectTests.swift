import Testing

@testable import Cascade

/// Effects: run, merge, concatenate, errors, StoreTask and late sends.
private struct Loader: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var failure: String?
  }
  enum Action: Equatable, Sendable {
    case load, loaded, done
    case sequence
    case log(String)
    case throwUnhandled, throwHandled
    case failed(String)
  }
  struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      state.log.append("load")
      return .run { send in await send(.loaded) }
    case .loaded:
      state.log.append("loaded")
      return .run { send in
        await Task.yield()
        await send(.done)
      }
    case .done:
      state.log.append("done")
      return .none
    case .sequence:
      return .concatenate(
        .run { send in
          await Task.yield()
          await send(.log("1"))
        },
        .send(.log("2")),
        .merge(
          .run { send in await send(.log("3")) },
          .none),
        .run { send in await send(.log("4")) })
    case let .log(entry):
      state.log.append(entry)
      return .none
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

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct EffectTests {
  @Test func finishWaitsForTheWholeCascade() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    await store.send(.load).finish()
    #expect(store.log == ["load", "loaded", "done"])
    #expect(store.activeEffectCount == 0)
  }

  @Test func runNeverStartsInsideTheSendLoop() {
    let store = Store(initialState: Loader.State()) { Loader() }
    store.send(.load)
    // `send` has returned; the effect's task cannot have run on this (main) actor yet.
    #expect(store.log == ["load"])
  }

  @Test func concatenateRunsEachPartAfterThePreviousFinished() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    await store.send(.sequence).finish()
    #expect(store.log == ["1", "2", "3", "4"])
  }

  @Test func anUnhandledErrorIsAWarningNamingTheEffect() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    let (_, warnings) = await RuntimeWarnings.capturing {
      await store.send(.throwUnhandled).finish()
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.fileID == "CascadeTests/EffectTests.swift")
    #expect(warnings.first?.message.contains("disk on fire") == true)
    #expect(warnings.first?.message.contains("catch:") == true)
  }

  @Test func aHandledErrorReachesItsHandler() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    let (_, warnings) = await RuntimeWarnings.capturing {
      await store.send(.throwHandled).finish()
    }
    #expect(warnings.isEmpty)
    #expect(store.failure == "disk on fire")
  }

  @Test func mapEmbedsEveryActionAnEffectSends() async {
    let effect = Effect<Int>.merge(.send(1), .run { send in await send(2) })
      .map { "\($0)" }
    let received = Box<[String]>([])
    let send = Send<String> { value in received.update { $0.append(value) } }
    guard case let .merge(parts) = effect.operation,
      case let .send(first) = parts[0].operation,
      case let .run(run) = parts[1].operation
    else {
      Issue.record("unexpected shape: \(effect.operation)")
      return
    }
    #expect(first == "1")
    try? await run.operation(send)
    #expect(received.value == ["2"])
  }

  @Test func noneIsDroppedFromMergesAndConcatenations() {
    #expect(Effect<Int>.merge(.none, .none).isNone)
    #expect(Effect<Int>.concatenate(.none).isNone)
    guard case .send(1) = Effect<Int>.merge(.none, .send(1)).operation else {
      Issue.record("a merge of one effect should be that effect")
      return
    }
  }
}
