import CascadeTesting
import Testing

@testable import Cascade

/// A feature whose effects are throttled: single actions, a burst from one effect, and a run
/// effect that reports when it starts.
private struct ThrottledTicker: Reducer {
  struct State: Equatable, Sendable {
    var emitted: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case tick(Int, latest: Bool)
    case burst(ClosedRange<Int>, latest: Bool)
    case fetch(Int)
    case emit(Int)
    case cancelTicks
  }
  enum CancelID { case tick }
  let clock: TestClock
  var started = Latch()
  var gate = Latch()
  var ended = Latch()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .tick(value, latest):
      return .send(.emit(value))
        .throttle(id: CancelID.tick, for: .seconds(1), clock: clock, latest: latest)
    case let .burst(values, latest):
      return .run { [ended] send in
        for value in values { await send(.emit(value)) }
        ended.signal()
      }
      .throttle(id: CancelID.tick, for: .seconds(1), clock: clock, latest: latest)
    case let .fetch(value):
      return .run { [started, gate, ended] send in
        defer { ended.signal() }
        started.signal()
        await gate.wait(for: value)
        await send(.emit(value))
      }
      .throttle(id: CancelID.tick, for: .seconds(1), clock: clock, latest: true)
    case let .emit(value):
      state.emitted.append(value)
      return .none
    case .cancelTicks:
      return .cancel(id: CancelID.tick)
    }
  }
}

/// A stack of screens that each throttle under the same id.
private struct Feed: Reducer {
  struct State: Equatable, Sendable { var path = StackState<ThrottledTicker.State>() }
  enum Action: Equatable, Sendable {
    case push, pop
    case path(StackActionOf<ThrottledTicker>)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push: state.path.append(ThrottledTicker.State())
      case .pop: state.path.removeAll()
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { ThrottledTicker(clock: clock) }
  }
}

/// A feature that throttles under a new id for every action.
private struct ManyIDs: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable {
    case tick(Int)
    case ticked
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .tick(id):
      return .send(.ticked).throttle(id: id, for: .seconds(1), clock: clock, latest: true)
    case .ticked:
      state.count += 1
      return .none
    }
  }
}

/// TCA's throttle: it limits the actions an effect sends, not when effects start.
@MainActor
@Suite(.hangGuard)
struct EffectThrottleTests {
  let clock = TestClock()

  private func makeStore() -> TestStore<ThrottledTicker.State, ThrottledTicker.Action> {
    TestStore(initialState: ThrottledTicker.State()) { ThrottledTicker(clock: clock) }
  }

  @Test func latestKeepsTheLastActionOfTheWindow() async {
    let store = makeStore()
    await store.send(.tick(1, latest: true))
    await store.receive(.emit(1)) { $0.emitted = [1] }  // the first one at once
    await store.send(.tick(2, latest: true))
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(3, latest: true))
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(4, latest: true))
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(5, latest: true))
    await clock.advance(by: .milliseconds(249))  // still inside the window: nothing
    await clock.advance(by: .milliseconds(1))
    await store.receive(.emit(5)) { $0.emitted = [1, 5] }
    await store.finish()
  }

  @Test func firstKeepsTheFirstActionOfTheWindowAndTheWindowRestartsFromItsDelivery() async {
    let store = makeStore()
    await store.send(.tick(1, latest: false))
    await store.receive(.emit(1)) { $0.emitted = [1] }
    await store.send(.tick(2, latest: false))
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(3, latest: false))
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(4, latest: false))
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(5, latest: false))
    await clock.advance(by: .milliseconds(250))  // t = 1 s
    await store.receive(.emit(2)) { $0.emitted = [1, 2] }
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(6, latest: false))  // inside the window opened by 2's delivery
    await clock.advance(by: .milliseconds(500))
    await store.send(.tick(7, latest: false))
    await clock.advance(by: .milliseconds(250))  // t = 2 s
    await store.receive(.emit(6)) { $0.emitted = [1, 2, 6] }
    await store.finish()
  }

  @Test func anActionAfterAWholeQuietIntervalGoesThroughAtOnce() async {
    let store = makeStore()
    await store.send(.tick(1, latest: true))
    await store.receive(.emit(1)) { $0.emitted = [1] }
    await clock.advance(by: .seconds(2))
    await store.send(.tick(2, latest: true))
    await store.receive(.emit(2)) { $0.emitted = [1, 2] }
    await clock.advance(by: .seconds(2))
    await store.send(.tick(3, latest: true))
    await store.receive(.emit(3)) { $0.emitted = [1, 2, 3] }
    await store.finish()
  }

  @Test func theFirstActionIsDeliveredOnce() async {
    let store = makeStore()
    await store.send(.tick(1, latest: false))
    await store.receive(.emit(1)) { $0.emitted = [1] }
    await clock.advance(by: .milliseconds(500))
    await store.send(.tick(2, latest: false))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.emit(2)) { $0.emitted = [1, 2] }
    await store.send(.tick(3, latest: false))  // a new window opened at 2's delivery
    await store.send(.cancelTicks)
    await store.finish()
  }

  @Test func cancellingTheIDDropsTheKeptAction() async {
    let store = makeStore()
    await store.send(.tick(1, latest: true))
    await store.receive(.emit(1)) { $0.emitted = [1] }
    await store.send(.tick(2, latest: true))
    await store.send(.cancelTicks)
    await clock.run()
    await store.finish()  // .emit(2) never arrives
  }

  @Test(arguments: [true, false])
  func itLimitsTheActionsOfASingleEffect(latest: Bool) async {
    let feature = ThrottledTicker(clock: clock)
    let store = TestStore(initialState: ThrottledTicker.State()) { feature }
    await store.send(.burst(1...5, latest: latest))
    await feature.ended.wait(for: 1)  // all five sent, before the clock moves
    await store.receive(.emit(1)) { $0.emitted = [1] }
    await clock.advance(by: .seconds(1))
    let kept = latest ? 5 : 2
    await store.receive(.emit(kept)) { $0.emitted = [1, kept] }
    await store.finish()
  }

  @Test func aThrottledEffectStartsAtOnceOnlyWhatItSendsWaits() async {
    let feature = ThrottledTicker(clock: clock)
    let store = Store(initialState: ThrottledTicker.State()) { feature }
    store.send(.fetch(1))
    feature.gate.signal()
    await feature.ended.wait(for: 1)
    #expect(store.emitted == [1])
    let second = store.send(.fetch(2))
    await feature.started.wait(for: 2)  // inside the window, the work has started anyway
    feature.gate.signal()
    await feature.ended.wait(for: 2)
    #expect(store.emitted == [1])  // its action waits for the window to close
    await clock.advance(by: .seconds(1))
    await second.finish()
    #expect(store.emitted == [1, 2])
  }

  @Test func aNewThrottledEffectCancelsTheOneStillRunning() async {
    let feature = ThrottledTicker(clock: clock)
    let store = Store(initialState: ThrottledTicker.State()) { feature }
    store.send(.fetch(1))
    await feature.started.wait(for: 1)
    let second = store.send(.fetch(2))
    await feature.ended.wait(for: 1)  // the first fetch was cancelled, without sending
    #expect(store.emitted.isEmpty)
    feature.gate.signal()
    feature.gate.signal()
    await second.finish()
    #expect(store.emitted == [2])
  }

  @Test func poppedScreensLeaveNoThrottleWindowBehind() async {
    let store = Store(initialState: Feed.State()) { Feed(clock: clock) }
    for _ in 0..<50 {
      store.send(.push)
      let screen = store.scope(state: \.path, action: Feed.Action.path)[0]
      screen.send(.tick(1, latest: true))
      screen.send(.tick(2, latest: true))  // kept: a wait is running
      store.send(.pop)
    }
    #expect(store.core.throttleEntryCount == 0)
  }

  @Test func windowsThatHaveClosedAreForgotten() async {
    let store = Store(initialState: ManyIDs.State()) { ManyIDs(clock: clock) }
    for id in 0..<1_000 {
      store.send(.tick(id))
      await clock.advance(by: .seconds(1))
    }
    #expect(store.count == 1_000)
    #expect(store.core.throttleEntryCount <= 32)
  }

  // A real `Store` and the `TestStore` agree on what a throttle delivers.
  @Test func throttleLatestAcrossEffects() async {
    await expectStoreAndTestStoreAgree([
      .send(.tick(1, latest: true)),
      .receive(.step("tick 1")),
      .send(.tick(2, latest: true)),
      .send(.tick(3, latest: true)),
      .advance(.milliseconds(100)),
      .receive(.step("tick 3")),
    ])
  }

  @Test func throttleFirstAcrossEffects() async {
    await expectStoreAndTestStoreAgree([
      .send(.tick(1, latest: false)),
      .receive(.step("tick 1")),
      .send(.tick(2, latest: false)),
      .send(.tick(3, latest: false)),
      .advance(.milliseconds(100)),
      .receive(.step("tick 2")),
    ])
  }

  @Test func throttleLimitsTheActionsOfOneEffect() async {
    await expectStoreAndTestStoreAgree([
      .send(.burst(latest: true)),
      .receive(.step("burst 1")),
      .advance(.milliseconds(100)),
      .receive(.step("burst 3")),
    ])
    await expectStoreAndTestStoreAgree([
      .send(.burst(latest: false)),
      .receive(.step("burst 1")),
      .advance(.milliseconds(100)),
      .receive(.step("burst 2")),
    ])
  }
}
