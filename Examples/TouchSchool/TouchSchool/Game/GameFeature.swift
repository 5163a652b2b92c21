import Cascade

/// The game: every tap adds a touch for my school. Taps are counted here and handed to the
/// ranking in batches, at most one per `batchInterval` (a second by default), never one write
/// per tap.
///
/// The screen reads the same shared ranking as the main and rank screens, so the count and
/// rank it shows move as the ranking's snapshots arrive, with nothing copied or synced by hand:
///
/// ```swift
/// // In the parent, pushing the game:
/// state.path.append(.game(GameFeature.State(school: school, ranking: state.$ranking)))
/// ```
///
/// A batch is written by the parent (``Action/Delegate/saveTouches(_:_:)``), whose effects
/// outlive this screen; taps still waiting when the screen is popped are taken by the parent
/// too (``State/takeBatch()``), so no touch is lost.
public struct GameFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var school: School
    @Shared public var ranking: Ranking
    /// Taps not handed to the ranking yet: the current batch.
    public var pendingTouches: Int

    public init(school: School, ranking: Shared<Ranking>, pendingTouches: Int = 0) {
      self.school = school
      self._ranking = ranking
      self.pendingTouches = pendingTouches
    }

    /// My school's touches as the screen shows them: the ranking's, plus the current batch.
    public var myTouches: Int { ranking.touches(for: school.id) + pendingTouches }

    /// My school's rank, counting the current batch.
    public var myRank: Int { ranking.adding(pendingTouches, to: school.id).rank(of: school.id) }

    /// Ends the current batch: its touches move into the shared ranking at once (so every
    /// screen counts them while the write is on its way; the next snapshot confirms them) and
    /// their number is returned for writing. `nil` when there is nothing to write.
    public mutating func takeBatch() -> Int? {
      let count = pendingTouches
      guard count > 0 else { return nil }
      pendingTouches = 0
      let school = school.id
      $ranking.withLock { $0.touches[school, default: 0] += count }
      return count
    }
  }

  public enum Action: Equatable, Sendable {
    case touchTapped
    case batchIntervalElapsed
    case rankTapped
    case backTapped
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      /// Write `count` touches for the school (already counted in the shared ranking).
      case saveTouches(School.ID, Int)
      /// Push the rank screen.
      case showRanking
    }
  }

  enum CancelID { case batch }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  /// The shortest time between two writes of touches.
  public let batchInterval: Duration

  public init(batchInterval: Duration = .seconds(1)) { self.batchInterval = batchInterval }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .touchTapped:
      state.pendingTouches += 1
      // The first tap of a batch starts its interval; the others join it.
      guard state.pendingTouches == 1 else { return .none }
      return .run { [clock, batchInterval] send in
        try await clock.sleep(for: batchInterval)
        await send(.batchIntervalElapsed)
      }
      .cancellable(id: CancelID.batch, cancelInFlight: true)

    case .batchIntervalElapsed:
      guard let count = state.takeBatch() else { return .none }
      return .send(.delegate(.saveTouches(state.school.id, count)))

    case .rankTapped:
      return .send(.delegate(.showRanking))

    case .backTapped:
      return .run { [dismiss] _ in await dismiss() }

    case .delegate:
      return .none
    }
  }
}
