import Cascade

/// The app itself: a big button that counts taps, kept between launches.
public struct HomeFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var count: Int
    public init(count: Int = 0) { self.count = count }
  }

  public enum Action: Equatable, Sendable {
    case tapButtonTapped
    case resetButtonTapped
  }

  @Dependency(\.settings) var settings

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tapButtonTapped:
      state.count += 1
      return save(state.count)
    case .resetButtonTapped:
      state.count = 0
      return save(0)
    }
  }

  private func save(_ count: Int) -> Effect<Action> {
    .run { [settings] _ in settings.setTapCount(count) }
  }
}
