import Cascade

/// A parent holding a shared score and pushing player screens that hold the same score.
struct Scoreboard: Reducer {
  struct State: Equatable, Sendable {
    @Shared var score: Int
    var path = StackState<Player.State>()
  }
  enum Action: Equatable, Sendable {
    case openPlayer
    case resetTapped
    case path(StackActionOf<Player>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .openPlayer:
        state.path.append(Player.State(score: state.$score))
      case .resetTapped:
        state.$score.withLock { $0 = 0 }
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Player() }
  }
}

/// A pushed screen that adds to the shared score, directly or from an effect.
struct Player: Reducer {
  struct State: Equatable, Sendable {
    @Shared var score: Int
    var bonuses = 0
  }
  enum Action: Equatable, Sendable {
    case tapped
    case bonusTapped
    case bonusApplied
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tapped:
      state.$score.withLock { $0 += 1 }
      return .none
    case .bonusTapped:
      return .run { [score = state.$score] send in
        score.withLock { $0 += 10 }
        await send(.bonusApplied)
      }
    case .bonusApplied:
      state.bonuses += 1
      return .none
    }
  }
}
