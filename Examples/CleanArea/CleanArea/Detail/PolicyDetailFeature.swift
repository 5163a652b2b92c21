import Cascade

/// One policy: its details, its bookmark, and its related policies, each of which opens
/// another detail on the root stack.
public struct PolicyDetailFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var policy: Policy
    public var related: [Policy]
    public var isBookmarked = false

    public init(policy: Policy, related: [Policy], isBookmarked: Bool = false) {
      self.policy = policy
      self.related = related
      self.isBookmarked = isBookmarked
    }
  }

  public enum Action: Equatable, Sendable {
    case onAppear
    case bookmarksChanged(Set<Policy.ID>)
    case bookmarkTapped
    case relatedTapped(Policy.ID)
    case backTapped
    case homeTapped
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable {
      case showPolicy(Policy.ID)
      case goHome
    }
  }

  @Dependency(\.bookmarks) var bookmarks
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.cleanAreaPlantedBug) var plantedBug

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      if plantedBug == .detailWithoutObservation { return .none }
      return bookmarks.observe(Action.bookmarksChanged)

    case .bookmarksChanged(let ids):
      state.isBookmarked = ids.contains(state.policy.id)
      return .none

    case .bookmarkTapped:
      // The client is the one source of truth: this screen, the bookmarks tab and the next
      // launch all hear the change through `updates()`.
      return .run { [bookmarks, id = state.policy.id] _ in bookmarks.toggle(id) }

    case .relatedTapped(let id):
      guard state.related.contains(where: { $0.id == id }) else {
        reportIssue(
          "PolicyDetailFeature: \(id) is not related to policy \(state.policy.id); ignored.")
        return .none
      }
      return .send(.delegate(.showPolicy(id)))

    case .backTapped:
      return .run { [dismiss] _ in await dismiss() }

    case .homeTapped:
      return .send(.delegate(.goHome))

    case .delegate:
      return .none
    }
  }
}
