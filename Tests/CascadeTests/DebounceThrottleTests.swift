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

  @Test func debounceRunsOnlyTheLastEffectAfterAQuietPeriod() async {
    let store = Store(initialState: Search.State()) { Search(clock: clock) }
    store.send(.queryChanged("s"))
    await clock.advance(by: .milliseconds(200))
    store.send(.queryChanged("se"))
    await clock.advance(by: .milliseconds(200))
    store.send(.queryChanged("seo"))
    await clock.advance(by: .milliseconds(299))
    #expect(store.searches.isEmpty)  // 299 ms of quiet: nothing yet
    await clock.advance(by: .milliseconds(1))
    _ = await store.values(of: \.searches).first { !$0.isEmpty }
    #expect(store.searches == ["seo"])
    await clock.run()
    #expect(store.searches == ["seo"])
  }

  @Test func throttleKeepsTheLatestDuringTheInterval() async {
    let store = Store(initialState: Search.State()) { Search(clock: clock) }
    store.send(.tick(1, latest: true))
    #expect(store.emitted == [1])  // the first one at once, in the same batch
    store.send(.tick(2, latest: true))
    store.send(.tick(3, latest: true))
    await clock.advance(by: .milliseconds(99))
    #expect(store.emitted == [1])
    await clock.advance(by: .milliseconds(1))
    _ = await store.values(of: \.emitted).first { $0.count == 2 }
    #expect(store.emitted == [1, 3])
    // Past a whole quiet interval, the next one goes through at once.
    await clock.advance(by: .milliseconds(250))
    store.send(.tick(4, latest: true))
    #expect(store.emitted == [1, 3, 4])
  }

  @Test func throttleCanKeepTheFirstInstead() async {
    let store = Store(initialState: Search.State()) { Search(clock: clock) }
    store.send(.tick(1, latest: false))
    store.send(.tick(2, latest: false))
    store.send(.tick(3, latest: false))
    await clock.advance(by: .milliseconds(100))
    _ = await store.values(of: \.emitted).first { $0.count == 2 }
    #expect(store.emitted == [1, 2])
  }

  @Test func cancellingAThrottleDropsTheKeptEffect() async {
    let store = Store(initialState: Search.State()) { Search(clock: clock) }
    store.send(.tick(1, latest: true))
    let kept = store.send(.tick(2, latest: true))
    store.send(.cancelTicks)
    await kept.finish()
    await clock.run()
    #expect(store.emitted == [1])
  }
}
