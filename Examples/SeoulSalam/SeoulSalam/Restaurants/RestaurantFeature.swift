import Cascade

/// Halal restaurants in Seoul, live: observe the listings, search them as you type, open one.
public struct RestaurantFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var restaurants: IdentifiedArrayOf<Restaurant> = []
    /// What the user typed.
    public var searchText = ""
    /// What the results match: the search text once typing pauses.
    public private(set) var query = ""
    /// The ids of the restaurants matching `query`, in listing order.
    public private(set) var resultIDs: [Restaurant.ID] = []
    public var isObserving = false
    /// The last failure of the listings, shown with a retry until it succeeds.
    public var failure: RestaurantFailure?
    @PresentationState public var detail: RestaurantDetailFeature.State?

    public init() {}

    /// Whether a search is under way.
    public var isSearching: Bool { !searchText.isEmpty }

    /// The restaurants to show.
    public var results: [Restaurant] { resultIDs.compactMap { restaurants[id: $0] } }

    /// Matches every restaurant against `query` (name, category, address in either language,
    /// district, certification), case-, accent- and width-insensitively.
    public mutating func applyQuery(_ text: String) {
      query = text
      let folded = Restaurant.fold(text.trimmingCharacters(in: .whitespaces))
      resultIDs =
        folded.isEmpty
        ? restaurants.ids
        : restaurants.filter { $0.matches(folded) }.map(\.id)
    }
  }

  public enum Action: Equatable, Sendable {
    case startObserving
    case stopObserving
    case restaurantsUpdated(Result<[Restaurant], RestaurantFailure>)
    case retryButtonTapped
    case searchTextChanged(String)
    case searchPaused(String)
    case resetSearchButtonTapped
    case restaurantTapped(Restaurant.ID)
    case detail(PresentationAction<RestaurantDetailFeature.Action>)
  }

  enum CancelID { case observation, search }

  /// How long typing must pause before the results update.
  public static let searchDebounce: Duration = .milliseconds(300)

  @Dependency(\.restaurants) var restaurantClient
  @Dependency(\.continuousClock) var clock
  @Dependency(\.seoulSalamPlantedBug) var plantedBug

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .startObserving:
        guard !state.isObserving else { return .none }
        state.isObserving = true
        return .run { [restaurantClient] send in
          for await update in restaurantClient.updates() {
            await send(.restaurantsUpdated(update))
          }
        }
        .cancellable(id: CancelID.observation, cancelInFlight: true)

      case .stopObserving:
        state.isObserving = false
        if plantedBug == .stopWithoutCancel { return .none }
        return .cancel(id: CancelID.observation)

      case let .restaurantsUpdated(.success(list)):
        state.failure = nil
        state.restaurants = IdentifiedArray(uniqueElements: list)
        state.applyQuery(state.query)
        if let id = state.detail?.restaurant.id {
          if let fresh = state.restaurants[id: id] {
            state.detail?.restaurant = fresh
          } else {
            state.detail?.isRemoved = true
          }
        }
        return .none

      case let .restaurantsUpdated(.failure(failure)):
        // The listener ended: keep what was shown, say why, offer a retry.
        state.failure = failure
        state.isObserving = false
        return .cancel(id: CancelID.observation)

      case .retryButtonTapped:
        state.failure = nil
        return .send(.startObserving)

      case let .searchTextChanged(text):
        state.searchText = text
        if plantedBug == .searchWithoutCancelInFlight {
          return .run { [clock] send in
            try await clock.sleep(for: Self.searchDebounce)
            await send(.searchPaused(text))
          }
          .cancellable(id: CancelID.search)
        }
        return .send(.searchPaused(text))
          .debounce(id: CancelID.search, for: Self.searchDebounce, clock: clock)

      case let .searchPaused(text):
        state.applyQuery(text)
        return .none

      case .resetSearchButtonTapped:
        state.searchText = ""
        state.applyQuery("")
        return .cancel(id: CancelID.search)

      case let .restaurantTapped(id):
        guard let restaurant = state.restaurants[id: id] else { return .none }
        state.detail = RestaurantDetailFeature.State(restaurant: restaurant)
        return .none

      case .detail:
        return .none
      }
    }
    .ifLet(\.$detail, action: Action.detail) { RestaurantDetailFeature() }
  }
}
