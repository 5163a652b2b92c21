import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// One action per effect shape. Every action it reduces is appended to `log`, so a test can
/// compare the order in which a real `Store` and a `TestStore` reduce them.
struct Shapes: Reducer {
  struct State: Equatable, Sendable {
    var log: [Action] = []
  }
  enum Action: Equatable, Sendable {
    case load
    case mergeNowAndLater
    case concatenateAroundSubscription
    case nestedConcatenation
    case subscribe
    case unsubscribe
    case edit(String)
    case save(String)
    case saved(String)
    case tick(Int, latest: Bool)
    case burst(latest: Bool)
    case step(String)
  }
  enum CancelID { case subscription, save, tick, burst }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append(action)
    switch action {
    case .load:
      return .run { send in await send(.step("loaded")) }
    case .mergeNowAndLater:
      return .merge(.send(.step("now")), .run { send in await send(.step("later")) })
    case .concatenateAroundSubscription:
      return .concatenate(
        .run { send in await send(.step("first")) },
        .send(.subscribe),
        .run { send in await send(.step("last")) })
    case .nestedConcatenation:
      return .concatenate(
        .run { [clock, deadline = clock.now.advanced(by: .seconds(1))] send in
          try await clock.sleep(until: deadline)
          await send(.step("a"))
        },
        .merge(.run { send in await send(.step("b")) }, .send(.step("c"))),
        .run { send in await send(.step("d")) })
    case .subscribe:
      // A subscription: lives until it is cancelled.
      return .run { _ in
        let (stream, _) = AsyncStream<Never>.makeStream()
        for await _ in stream {}
      }
      .cancellable(id: CancelID.subscription)
    case .unsubscribe:
      return .cancel(id: CancelID.subscription)
    case let .edit(text):
      return .send(.save(text)).debounce(id: CancelID.save, for: .seconds(1), clock: clock)
    case let .save(text):
      // The deadline is fixed by the reducer, so it does not depend on when the task runs.
      return .run { [clock, deadline = clock.now.advanced(by: .seconds(5))] send in
        try await clock.sleep(until: deadline)
        await send(.saved(text))
      }
    case .saved:
      return .none
    case let .tick(value, latest):
      return .send(.step("tick \(value)"))
        .throttle(id: CancelID.tick, for: .milliseconds(100), clock: clock, latest: latest)
    case let .burst(latest):
      return .merge(.send(.step("burst 1")), .send(.step("burst 2")), .send(.step("burst 3")))
        .throttle(id: CancelID.burst, for: .milliseconds(100), clock: clock, latest: latest)
    case .step:
      return .none
    }
  }
}

/// What a test does to a feature, in order: send an action, move the clock, or expect an
/// action an effect sent.
enum ScriptStep<Action> {
  case send(Action)
  case advance(Duration)
  case receive(Action)
}

/// Runs a `Shapes` script in a real `Store` and in a `TestStore`: see
/// `expectStoreAndTestStoreAgree(_:initialState:reducedCount:sourceLocation:feature:)`.
@MainActor
func expectStoreAndTestStoreAgree(
  _ script: [ScriptStep<Shapes.Action>],
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  await expectStoreAndTestStoreAgree(
    script, initialState: Shapes.State(), reducedCount: { $0.log.count },
    sourceLocation: sourceLocation, feature: Shapes.init(clock:))
}

/// Runs a script in a real `Store` and in a `TestStore` of the same feature, each with its own
/// test clock (passed to `feature` and set as the `continuousClock` dependency), and checks
/// that both reduce the same actions, in the same order, into the same states.
///
/// The real store runs first, with a `Recorder` keeping the state after every action it
/// reduces; at each expected action it waits until `reducedCount` (a count the feature keeps
/// of the actions it reduced) reaches it, and at the end it waits for every effect, so an action
/// delivered late is caught. Then the `TestStore` (exhaustive) must send and receive the same
/// actions, reaching each recorded state in turn. No wall clock is involved.
@MainActor
func expectStoreAndTestStoreAgree<Feature: Reducer>(
  _ script: [ScriptStep<Feature.Action>],
  initialState: Feature.State,
  reducedCount: @escaping @MainActor @Sendable (Feature.State) -> Int,
  sourceLocation: SourceLocation = #_sourceLocation,
  feature: @escaping (TestClock) -> Feature
) async
where
  Feature.State: Equatable & Sendable, Feature.Action: Equatable & Sendable
{
  let recorder = Recorder<Feature.State, Feature.Action>(keepingStates: true)
  let storeClock = TestClock()
  let store = Store(initialState: initialState) {
    feature(storeClock).record(into: recorder)
  } withDependencies: {
    $0.continuousClock = storeClock
  }
  var tasks: [StoreTask] = []
  var expected = 0
  for step in script {
    switch step {
    case let .send(action):
      tasks.append(store.send(action))
      expected += 1
    case let .advance(duration):
      await storeClock.advance(by: duration)
    case .receive:
      expected += 1
      let target = expected
      _ = await withDeadline(
        "the store to reduce action \(target)", sourceLocation: sourceLocation
      ) { await store.values(of: reducedCount).first { $0 >= target } }
    }
  }
  for task in tasks { await task.finish() }
  let entries = recorder.recording.entries
  #expect(entries.count == expected, "the store reduced \(entries)", sourceLocation: sourceLocation)

  let testClock = TestClock()
  let testStore = TestStore(initialState: initialState) {
    feature(testClock)
  } withDependencies: {
    $0.continuousClock = testClock
  }
  var next = entries.makeIterator()
  for step in script {
    switch step {
    case let .send(action):
      let entry = next.next()
      #expect(entry?.action == action, sourceLocation: sourceLocation)
      await testStore.send(action) { $0 = entry?.state ?? $0 }
    case let .advance(duration):
      await testClock.advance(by: duration)
    case let .receive(action):
      let entry = next.next()
      #expect(entry?.action == action, sourceLocation: sourceLocation)
      await testStore.receive(action) { $0 = entry?.state ?? $0 }
    }
  }
  await testStore.finish()
}
