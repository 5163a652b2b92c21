import Cascade

/// A child whose effects wait on the clock dependency, then send `tick`: a test advances its
/// test clock and either receives the ticks (the effect was kept) or finishes with nothing
/// received (it was cancelled).
///
/// `start` waits a second, then ticks once. `startLoop` ticks every second by sleeping in a
/// loop, `startTimer` by the clock's timer; both run until cancelled. `busyThenSleep` does real
/// work before it sleeps a second and ticks. `cancel` cancels the effects of `start`,
/// `startLoop` and `startTimer` (one id); `close` dismisses the ticker.
public struct Ticker: Reducer, Sendable {
  public struct State: Equatable, Sendable, Identifiable {
    public var id: Int
    public var ticks: Int

    public init(id: Int = 0, ticks: Int = 0) {
      self.id = id
      self.ticks = ticks
    }
  }
  public enum Action: Equatable, Sendable {
    case start
    case startLoop
    case startTimer
    case busyThenSleep
    case tick
    case cancel
    case close
  }
  public enum CancelID: Sendable { case tick }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
      .cancellable(id: CancelID.tick)
    case .startLoop:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.tick)
    case .startTimer:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
      .cancellable(id: CancelID.tick)
    case .busyThenSleep:
      return .run { send in
        // Real work before the first sleep (about 100 ms on this machine, more under load).
        _ = busyWork()
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
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

/// A deterministic computation that takes a while.
private func busyWork() -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for value in 0..<UInt64(2_000_000) {
    hash = (hash ^ value) &* 0x100_0000_01b3
  }
  return hash
}
