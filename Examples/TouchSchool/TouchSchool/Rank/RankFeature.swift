import Cascade

/// The ranking screen: every school with touches, my school highlighted with its rank, an
/// extra panel (the original app's ad) that can be shown or hidden, and a back button.
///
/// The ranking is the main screen's shared ranking, so a snapshot that arrives while this
/// screen is on the stack is on it at once; the original app rebuilt this screen's state by
/// hand, through a global variable, to get there.
///
/// ```swift
/// state.path.append(
///   .rank(RankFeature.State(mySchool: school, schools: state.schools, ranking: state.$ranking)))
/// ```
public struct RankFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var mySchool: School?
    /// The directory, for the schools' names.
    public var schools: IdentifiedArrayOf<School>
    @Shared public var ranking: Ranking
    public var isPanelShown: Bool

    public init(
      mySchool: School?, schools: IdentifiedArrayOf<School>, ranking: Shared<Ranking>,
      isPanelShown: Bool = false
    ) {
      self.mySchool = mySchool
      self.schools = schools
      self._ranking = ranking
      self.isPanelShown = isPanelShown
    }

    /// One line of the list.
    public struct Row: Equatable, Sendable {
      public var rank: Int
      public var name: String
      public var touches: Int
      public var isMine: Bool

      public init(rank: Int, name: String, touches: Int, isMine: Bool) {
        self.rank = rank
        self.name = name
        self.touches = touches
        self.isMine = isMine
      }
    }

    /// Every school with touches, best first; ties share a rank.
    public var rows: [Row] {
      ranking.standings.map { standing in
        Row(
          rank: standing.rank, name: schools[id: standing.schoolID]?.name ?? standing.schoolID,
          touches: standing.touches, isMine: standing.schoolID == mySchool?.id)
      }
    }

    /// My school's rank (it may have no touches yet), or `nil` without a school.
    public var myRank: Int? { mySchool.map { ranking.rank(of: $0.id) } }
  }

  public enum Action: Equatable, Sendable {
    case panelToggled
    case backTapped
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .panelToggled:
      state.isPanelShown.toggle()
      return .none

    case .backTapped:
      return .run { [dismiss] _ in await dismiss() }
    }
  }
}
