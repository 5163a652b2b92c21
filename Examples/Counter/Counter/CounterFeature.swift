import Cascade

/// A counter with a ticking timer: the smallest feature that shows state, actions, an
/// asynchronous effect and its cancellation.
public struct CounterFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var count = 0
    public var isTimerRunning = false

    public init(count: Int = 0) { self.count = count }
  }

  public enum Action: Equatable, Sendable {
    case incrementButtonTapped
    case decrementButtonTapped
    case resetButtonTapped
    case toggleTimerButtonTapped
    case timerTicked
  }

  enum CancelID { case timer }

  /// How long between two ticks of the timer.
  public let tickInterval: Duration
  /// The clock the timer sleeps on; tests set it to a `TestClock`.
  @Dependency(\.continuousClock) var clock

  public init(tickInterval: Duration = .seconds(1)) {
    self.tickInterval = tickInterval
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementButtonTapped:
      state.count += 1
      return .none

    case .decrementButtonTapped:
      state.count -= 1
      return .none

    case .resetButtonTapped:
      state.count = 0
      state.isTimerRunning = false
      return .cancel(id: CancelID.timer)

    case .toggleTimerButtonTapped:
      state.isTimerRunning.toggle()
      guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
      let (clock, interval) = (clock, tickInterval)
      return .run { send in
        while true {
          try await clock.sleep(for: interval)
          await send(.timerTicked)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)

    case .timerTicked:
      state.count += 1
      return .none
    }
  }
}
