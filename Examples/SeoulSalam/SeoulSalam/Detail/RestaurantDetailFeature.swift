import Cascade

/// One restaurant, presented over the list; it closes itself.
public struct RestaurantDetailFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var restaurant: Restaurant
    /// The listing removed this restaurant while it was shown.
    public var isRemoved = false

    public init(restaurant: Restaurant) { self.restaurant = restaurant }

    /// Where it is, for a map app.
    public var coordinates: String {
      "\(restaurant.latitude), \(restaurant.longitude)"
    }
  }

  public enum Action: Equatable, Sendable {
    case closeButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeButtonTapped:
      return .run { [dismiss] _ in await dismiss() }
    }
  }
}
