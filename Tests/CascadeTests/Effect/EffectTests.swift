import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

@testable import Cascade

/// Effects: run, merge, concatenate and StoreTask (errors are EffectRunTests').
private struct Loader: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case load, loaded, done
    case sequence
    case log(String)
  }

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
    }
  }
}

@MainActor
@Suite(.hangGuard)
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

  @Test func concatenationDoesNotWaitForTheEffectsOfTheActionsItSends() async {
    let store = Store(initialState: Shapes.State()) { Shapes(clock: TestClock()) }
    store.send(.concatenateAroundSubscription)
    // `.subscribe` starts an effect that never ends: the last part runs all the same.
    _ = await withDeadline("the log to reach step \"last\"") {
      await store.values(of: \.log).first { $0.contains(.step("last")) }
    }
    #expect(
      store.log == [
        .concatenateAroundSubscription, .step("first"), .subscribe, .step("last"),
      ])
    await store.send(.unsubscribe).finish()
  }

  @Test func concatenatedTimersDeliverOneAfterAnother() async {
    let clock = TestClock()
    let store = Store(initialState: Timers.State()) { Timers(clock: clock) }
    store.send(.concatenate)
    for (second, expected) in [(1, [1]), (2, [1, 2]), (3, [1, 2, 3])] {
      await waitForSleepers(1, on: clock)
      await clock.advance(by: .seconds(second))
      _ = await withDeadline("the timers to deliver \(expected)") {
        await store.values(of: \.delivered).first { $0 == expected }
      }
    }
    await clock.run()
    #expect(store.delivered == [1, 2, 3])
  }

  @Test func mergedTimersDeliverAsTheyFinish() async {
    let clock = TestClock()
    let store = Store(initialState: Timers.State()) { Timers(clock: clock) }
    let task = store.send(.merge)
    await waitForSleepers(3, on: clock)
    await clock.advance(by: .seconds(1))
    _ = await withDeadline("the first timer") {
      await store.values(of: \.delivered).first { $0 == [1] }
    }
    await clock.advance(by: .seconds(1))
    _ = await withDeadline("the second timer") {
      await store.values(of: \.delivered).first { $0 == [1, 2] }
    }
    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(store.delivered == [1, 2, 3])
  }

  @Test func aConcatenationOfOneEffectIsThatEffect() async {
    let effect = Effect<Int>.concatenate(.run { send in await send(1) })
    guard case .run = effect.operation else {
      Issue.record("expected the run itself, got \(effect.operation)")
      return
    }
  }

  @Test func aDoublyCancellableSendIsDeliveredOnce() async {
    struct Once: Reducer {
      struct State: Equatable, Sendable { var received: [Int] = [] }
      enum Action: Equatable, Sendable {
        case start
        case value(Int)
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .send(.value(42))
            .cancellable(id: "id", cancelInFlight: true)
            .cancellable(id: "id", cancelInFlight: true)
        case let .value(value):
          state.received.append(value)
          return .none
        }
      }
    }
    let store = Store(initialState: Once.State()) { Once() }
    await store.send(.start).finish()
    #expect(store.received == [42])
  }

  @Test func anEffectSeesTheDependenciesOfTheReducerThatReturnedIt() async {
    struct Stamp: Reducer {
      struct State: Equatable, Sendable { var seconds = 0 }
      enum Action: Equatable, Sendable {
        case tap
        case response(Int)
      }
      @Dependency(\.date) var date
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .tap:
          return .run { send in
            await send(.response(Int(date.now.timeIntervalSinceReferenceDate)))
          }
        case let .response(value):
          state.seconds = value
          return .none
        }
      }
    }
    let store = TestStore(initialState: Stamp.State()) {
      Stamp().dependency(\.date, .constant(Date(timeIntervalSinceReferenceDate: 1_234_567_890)))
    }
    await store.send(.tap)
    await store.receive(.response(1_234_567_890)) { $0.seconds = 1_234_567_890 }
  }

  @Test func mapTransformsWithTheDependenciesTheEffectWasCreatedWith() async {
    @Dependency(\.date) var date
    let effect = withDependencies {
      $0.date = .constant(Date(timeIntervalSince1970: 1_234_567_890))
    } operation: {
      Effect<Void>.run { send in await send(()) }.map { _ in date.now }
    }
    guard case let .run(run) = effect.operation else {
      Issue.record("expected a run, got \(effect.operation)")
      return
    }
    let received = Box<[Date]>([])
    await DependencyValues._withValue(run.dependencies) {
      try? await run.operation(Send { value in received.update { $0.append(value) } })
    }
    #expect(received.value == [Date(timeIntervalSince1970: 1_234_567_890)])
  }

  /// Waits (yielding, never on the wall clock) until `count` tasks sleep on `clock`.
  private func waitForSleepers(_ count: Int, on clock: TestClock) async {
    await pollUntil { clock.sleeperCount >= count }
  }
}

/// Timers of 1, 2 and 3 seconds, concatenated or merged.
private struct Timers: Reducer {
  struct State: Equatable, Sendable { var delivered: [Int] = [] }
  enum Action: Equatable, Sendable {
    case concatenate, merge
    case value(Int)
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let timers = (1...3).map { seconds in
      Effect<Action>.run { [clock] send in
        try await clock.sleep(for: .seconds(seconds))
        await send(.value(seconds))
      }
    }
    switch action {
    case .concatenate: return .concatenate(timers)
    case .merge: return .merge(timers)
    case let .value(value):
      state.delivered.append(value)
      return .none
    }
  }
}
