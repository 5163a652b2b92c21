import Cascade

/// The onboarding pages: next, skip, and start on the last page. Finishing is a delegate
/// action the app feature handles.
public struct OnboardingFeature: Reducer {
  public struct Page: Equatable, Sendable {
    public let title: String
    public let body: String
  }

  public struct State: Equatable, Sendable {
    public var pages: [Page]
    public var currentPage = 0

    public init(pages: [Page] = OnboardingFeature.pages) { self.pages = pages }

    public var isLastPage: Bool { currentPage == pages.count - 1 }
  }

  public enum Action: Equatable, Sendable {
    case nextButtonTapped
    case skipButtonTapped
    case startButtonTapped
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable { case completed }
  }

  public static let pages = [
    Page(title: "Tap to count", body: "Every tap on the big button adds one."),
    Page(title: "Beat your record", body: "Your count is kept between launches."),
    Page(title: "Ready?", body: "Start tapping."),
  ]

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .nextButtonTapped:
      guard !state.isLastPage else { return .send(.delegate(.completed)) }
      state.currentPage += 1
      return .none
    case .skipButtonTapped, .startButtonTapped:
      return .send(.delegate(.completed))
    case .delegate:
      return .none
    }
  }
}
