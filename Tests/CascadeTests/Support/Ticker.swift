import CascadeTesting

@testable import Cascade

/// A child whose `start` waits a second on the test clock, then sends `tick`: a test advances
/// the clock and either receives the tick (the effect was kept) or finishes with nothing
/// received (it was cancelled). `cancel` cancels its own effect by id.
struct Ticker: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var ticks = 0
  }
  enum Action: Equatable, Sendable {
    case start
    case tick
    case cancel
    case close
  }
  enum CancelID { case tick }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
      .cancellable(id: CancelID.tick)
    case .tick:
      state.ticks += 1
      return .none
    case .cancel:
      return .cancel(id: CancelID.tick)
    case .close:
      return .run { _ in await dismiss() }
    }
  }
}

/// A screen that is not `Identifiable` and not an enum: its identity is its position alone.
struct Plain: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
  }
  typealias Action = Ticker.Action
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
    case .tick:
      state.ticks += 1
      return .none
    case .cancel, .close:
      return .none
    }
  }
}
