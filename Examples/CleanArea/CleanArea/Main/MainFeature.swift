import Cascade

/// The tab screen: every policy, policies by category, the bookmarked ones, and a search.
///
/// Selecting a policy in any tab does not navigate here: it asks the root, which owns the one
/// navigation stack, to push the detail (`.delegate(.showPolicy)`). A stack inside a tab inside
/// a stack is what broke navigation in the original app.
public struct MainFeature: Reducer {
  public enum Tab: String, CaseIterable, Equatable, Sendable {
    case all, categories, bookmarks, search
  }

  public struct State: Equatable, Sendable {
    public var policies: [Policy]
    public var selectedTab = Tab.all
    /// The category the categories tab shows; `nil` lists the categories.
    public var selectedCategory: String?
    /// The bookmarks as the bookmark client last reported them.
    public var bookmarks: Set<Policy.ID> = []
    /// What the search tab looks for, in titles, categories, summaries and eligibility.
    public var searchText = ""

    public init(policies: [Policy]) { self.policies = policies }

    /// The categories, in the order their first policy appears.
    public var categories: [String] {
      var seen = Set<String>()
      return policies.map(\.category).filter { seen.insert($0).inserted }
    }

    /// Policies whose title, category, summary or eligibility contain every word of `text`,
    /// ignoring case; none for an empty search.
    static func search(_ text: String, in policies: [Policy]) -> [Policy] {
      let words = text.lowercased().split(separator: " ")
      guard !words.isEmpty else { return [] }
      return policies.filter { policy in
        let haystack = [policy.title, policy.category, policy.summary, policy.eligibility]
          .joined(separator: " ").lowercased()
        return words.allSatisfy { haystack.contains($0) }
      }
    }

    /// What the selected tab lists.
    public var visiblePolicies: [Policy] {
      switch selectedTab {
      case .all: policies
      case .categories:
        selectedCategory.map { category in policies.filter { $0.category == category } } ?? []
      case .bookmarks: policies.filter { bookmarks.contains($0.id) }
      case .search: Self.search(searchText, in: policies)
      }
    }
  }

  public enum Action: Equatable, Sendable {
    case onAppear
    case tabSelected(Tab)
    case categorySelected(String?)
    case searchTextChanged(String)
    case bookmarksChanged(Set<Policy.ID>)
    case policyTapped(Policy.ID)
    case delegate(Delegate)

    public enum Delegate: Equatable, Sendable { case showPolicy(Policy.ID) }
  }

  @Dependency(\.bookmarks) var bookmarks

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return bookmarks.observe(Action.bookmarksChanged)

    case .tabSelected(let tab):
      state.selectedTab = tab
      return .none

    case .categorySelected(let category):
      state.selectedTab = .categories
      state.selectedCategory = category
      return .none

    case .searchTextChanged(let text):
      state.selectedTab = .search
      state.searchText = text
      return .none

    case .bookmarksChanged(let ids):
      state.bookmarks = ids
      return .none

    case .policyTapped(let id):
      guard state.visiblePolicies.contains(where: { $0.id == id }) else {
        reportIssue(
          "MainFeature: policy \(id) is not listed in the \(state.selectedTab) tab; ignored.")
        return .none
      }
      return .send(.delegate(.showPolicy(id)))

    case .delegate:
      return .none
    }
  }
}
