import Cascade
import CascadeExampleCleanArea
import CascadeTesting
import Foundation
import Testing

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct ScreenTests {
  @Test func tabsListAllByCategoryAndBookmarked() {
    var main = MainFeature.State(policies: allPolicies)
    #expect(main.visiblePolicies.map(\.id) == [1, 2, 3])
    #expect(main.categories == ["Housing", "Finance"])
    main.selectedTab = .categories
    #expect(main.visiblePolicies.isEmpty)  // no category chosen yet
    main.selectedCategory = "Finance"
    #expect(main.visiblePolicies.map(\.id) == [3])
    main.selectedTab = .bookmarks
    main.bookmarks = [2, 1]
    #expect(main.visiblePolicies.map(\.id) == [1, 2])
    main.selectedTab = .search
    #expect(main.visiblePolicies.isEmpty)  // nothing typed yet
    main.searchText = "  LOAN "
    #expect(main.visiblePolicies.map(\.id) == [2])
    main.searchText = "housing support"  // every word, in any field
    #expect(main.visiblePolicies.map(\.id) == [1])
    main.searchText = "housing nothing"
    #expect(main.visiblePolicies.isEmpty)
  }

  @Test func typingASearchSwitchesToTheSearchTab() async {
    let store = TestStore(initialState: MainFeature.State(policies: allPolicies)) { MainFeature() }
    await store.send(.searchTextChanged("rent")) {
      $0.selectedTab = .search
      $0.searchText = "rent"
    }
    #expect(store.state.visiblePolicies.map(\.id) == [1])
  }

  @Test func selectingACategorySwitchesToTheCategoriesTab() async {
    let store = TestStore(initialState: MainFeature.State(policies: allPolicies)) { MainFeature() }
    await store.send(.categorySelected("Housing")) {
      $0.selectedTab = .categories
      $0.selectedCategory = "Housing"
    }
  }

  @Test func tappingAPolicyTheTabDoesNotListIsReported() async {
    var state = MainFeature.State(policies: allPolicies)
    state.selectedTab = .bookmarks
    let store = TestStore(initialState: state) { MainFeature() }
    await withKnownIssue {
      await store.send(.policyTapped(1))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("not listed in the bookmarks tab") }
    }
  }

  @Test func theMainScreenHearsBookmarksMadeElsewhere() async {
    let spy = BookmarkSpy()
    let store = TestStore(initialState: MainFeature.State(policies: allPolicies)) {
      MainFeature()
    } withDependencies: {
      $0.bookmarks = spy.client
    }
    let appear = await store.send(.onAppear)
    await store.receive(.bookmarksChanged([]))
    spy.client.toggle(3)
    await store.receive(.bookmarksChanged([3])) { $0.bookmarks = [3] }
    await appear.cancel()
    #expect(spy.observerCount == 0)
  }

  @Test func bookmarkingGoesThroughTheClientAndComesBackAsAnUpdate() async {
    let spy = BookmarkSpy()
    let store = TestStore(
      initialState: PolicyDetailFeature.State(policy: rent, related: [jeonse, account])
    ) {
      PolicyDetailFeature()
    } withDependencies: {
      $0.bookmarks = spy.client
    }
    let appear = await store.send(.onAppear)
    await store.receive(.bookmarksChanged([]))
    await store.send(.bookmarkTapped)
    await store.receive(.bookmarksChanged([1])) { $0.isBookmarked = true }
    await store.send(.bookmarkTapped)
    await store.receive(.bookmarksChanged([])) { $0.isBookmarked = false }
    await appear.cancel()
  }

  @Test func openingAPolicyThatIsNotRelatedIsReported() async {
    let store = TestStore(initialState: PolicyDetailFeature.State(policy: rent, related: [jeonse]))
    {
      PolicyDetailFeature()
    }
    await withKnownIssue {
      await store.send(.relatedTapped(3))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("3 is not related to policy 1") }
    }
  }
}
