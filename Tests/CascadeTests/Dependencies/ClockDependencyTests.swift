import CascadeTesting
import Foundation
import Testing

@testable import Cascade

/// Debounce and throttle driven by the clock dependency, in a file that imports Foundation
/// (where the existential clock once failed to compile with the generic overloads).
private struct Typing: Reducer {
  struct State: Equatable, Sendable { var saved: [String] = [] }
  enum Action: Equatable, Sendable {
    case typed(String)
    case save(String)
  }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .typed(text):
      return .send(.save(text)).debounce(id: "save", for: .seconds(1), clock: clock)
    case let .save(text):
      state.saved.append(text)
      return .none
    }
  }
}

private struct Pulse: Reducer {
  struct State: Equatable, Sendable { var beats = 0 }
  enum Action: Equatable, Sendable {
    case tap
    case beat
  }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      return .send(.beat).throttle(id: "beat", for: .seconds(1), clock: clock, latest: true)
    case .beat:
      state.beats += 1
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct ClockDependencyTests {
  @Test func debounceRunsOnTheInjectedClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Typing.State()) {
      Typing()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.typed("a"))
    await store.send(.typed("ab"))
    await clock.advance(by: .seconds(1))
    await store.receive(.save("ab")) { $0.saved = ["ab"] }
    await store.finish()
  }

  @Test func throttleRunsOnTheInjectedClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Pulse.State()) {
      Pulse()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.tap)
    await store.receive(.beat) { $0.beats = 1 }
    await store.send(.tap)
    await clock.advance(by: .seconds(1))
    await store.receive(.beat) { $0.beats = 2 }
    await store.finish()
  }
}
