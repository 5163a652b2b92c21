import CascadeTesting
import Testing

@testable import Cascade

private struct Search: Reducer {
  struct State: Equatable, Sendable {
    var searches: [String] = []
    var emitted: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case queryChanged(String)
    case searched(String)
    case tick(Int, latest: Bool)
    case emit(Int)
    case cancelTicks
  }
  enum CancelID { case search, tick }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .queryChanged(query):
      return .run { send in await send(.searched(query)) }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
    case let .searched(query):
      state.searches.append(query)
      return .none
    case let .tick(value, latest):
      return .send(.emit(value))
        .throttle(id: CancelID.tick, for: .milliseconds(100), clock: clock, latest: latest)
    case let .emit(value):
      state.emitted.append(value)
      return .none
    case .cancelTicks:
      return .cancel(id: CancelID.tick)
    }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct DebounceThrottleTests {
  let clock = TestClock()

  fileprivate func makeStore() -> TestStore<Search.State, Search.Action> {
    TestStore(initialState: Search.State()) { Search(clock: clock) }
  }

  @Test func debounceRunsOnlyTheLastEffectAfterAQuietPeriod() async {
    let store = makeStore()
    await store.send(.queryChanged("s"))
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("se"))
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("seo"))
    await clock.advance(by: .milliseconds(299))  // 299 ms of quiet: nothing yet
    await clock.advance(by: .milliseconds(1))
    await store.receive(.searched("seo")) { $0.searches = ["seo"] }
    await clock.run()
    await store.finish()  // "s" and "se" never arrive
  }

  @Test func throttleKeepsTheLatestDuringTheInterval() async {
    let store = makeStore()
    await store.send(.tick(1, latest: true))
    await store.receive(.emit(1)) { $0.emitted = [1] }  // the first one at once
    await store.send(.tick(2, latest: true))
    await store.send(.tick(3, latest: true))
    await clock.advance(by: .milliseconds(99))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.emit(3)) { $0.emitted = [1, 3] }
    // Past a whole quiet interval, the next one goes through at once.
    await clock.advance(by: .milliseconds(250))
    await store.send(.tick(4, latest: true))
    await store.receive(.emit(4)) { $0.emitted = [1, 3, 4] }
    await store.finish()
  }

  @Test func throttleCanKeepTheFirstInstead() async {
    let store = makeStore()
    await store.send(.tick(1, latest: false))
    await store.receive(.emit(1)) { $0.emitted = [1] }
    await store.send(.tick(2, latest: false))
    await store.send(.tick(3, latest: false))
    await clock.advance(by: .milliseconds(100))
    await store.receive(.emit(2)) { $0.emitted = [1, 2] }
    await store.finish()
  }

  @Test func cancellingAThrottleDropsTheKeptEffect() async {
    let store = makeStore()
    await store.send(.tick(1, latest: true))
    await store.receive(.emit(1)) { $0.emitted = [1] }
    await store.send(.tick(2, latest: true))
    await store.send(.cancelTicks)
    await clock.run()
    await store.finish()  // .emit(2) never arrives
  }
}
