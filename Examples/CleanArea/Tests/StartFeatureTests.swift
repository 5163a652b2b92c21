import Cascade
import CascadeExampleCleanArea
import CascadeExampleSupport
import CascadeTesting
import Foundation
import Testing

let rent = Policy(id: 1, title: "Rent Support", category: "Housing", relatedIDs: [2, 3])
let jeonse = Policy(id: 2, title: "Jeonse Loan", category: "Housing", relatedIDs: [1])
let account = Policy(id: 3, title: "Leap Account", category: "Finance", relatedIDs: [1])
let allPolicies = [rent, jeonse, account]

/// A bookmark client whose observers can be counted, to see screens stop observing.
final class BookmarkSpy: Sendable {
  let ids = Locked<Set<Policy.ID>>([])
  let observers = Locked<[UUID: AsyncStream<Set<Policy.ID>>.Continuation]>([:])

  var observerCount: Int { observers.withLock { $0.count } }

  var client: BookmarkClient {
    BookmarkClient(
      current: { self.ids.withLock { $0 } },
      toggle: { id in
        let now = self.ids.withLock { ids in
          if ids.remove(id) == nil { ids.insert(id) }
          return ids
        }
        for observer in self.observers.withLock({ Array($0.values) }) { observer.yield(now) }
      },
      updates: {
        let (stream, continuation) = AsyncStream<Set<Policy.ID>>.makeStream()
        let key = UUID()
        continuation.onTermination = { _ in
          _ = self.observers.withLock { $0.removeValue(forKey: key) }
        }
        self.observers.withLock { $0[key] = continuation }
        continuation.yield(self.ids.withLock { $0 })
        return stream
      })
  }
}

/// The loaded app: the main screen (#0) at the bottom of the stack.
func loadedState(tab: MainFeature.Tab = .all) -> StartFeature.State {
  var state = StartFeature.State()
  state.phase = .loaded
  state.policies = allPolicies
  var main = MainFeature.State(policies: allPolicies)
  main.selectedTab = tab
  state.path = [.main(main)]
  return state
}

func detail(_ policy: Policy, bookmarked: Bool = false) -> StartFeature.Path.State {
  .detail(
    PolicyDetailFeature.State(
      policy: policy,
      related: policy.relatedIDs.compactMap { id in allPolicies.first { $0.id == id } },
      isBookmarked: bookmarked))
}

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct StartFeatureTests {
  let bookmarks = BookmarkSpy()

  func makeStore(
    _ state: StartFeature.State = loadedState(),
    load: @escaping @Sendable () async throws(PolicyLoadError) -> [Policy] = { allPolicies }
  ) -> TestStore<StartFeature.State, StartFeature.Action> {
    TestStore(initialState: state) {
      StartFeature()
    } withDependencies: {
      $0.policies = PolicyClient(load: load)
      $0.bookmarks = bookmarks.client
    }
  }

  @Test func launchingLoadsThenPushesTheMainScreenOntoTheRootStack() async {
    let store = makeStore(StartFeature.State())
    await store.send(.onAppear) { $0.phase = .loading }
    await store.receive(.policiesLoaded(.success(allPolicies))) {
      $0.phase = .loaded
      $0.policies = allPolicies
      $0.path = [.main(MainFeature.State(policies: allPolicies))]
    }
    await store.send(.onAppear)  // appearing again does not reload
    await store.finish()
  }

  @Test func aLoadFailureShowsTheErrorAndRetryRecovers() async {
    let attempts = Locked(0)
    let store = makeStore(StartFeature.State()) { () async throws(PolicyLoadError) -> [Policy] in
      if attempts.withLock({
        $0 += 1
        return $0
      }) == 1 {
        throw .unavailable("offline")
      }
      return allPolicies
    }
    await store.send(.onAppear) { $0.phase = .loading }
    await store.receive(.policiesLoaded(.failure(.unavailable("offline")))) {
      $0.phase = .failed("The policies are unavailable: offline.")
    }
    await store.send(.retryTapped) { $0.phase = .loading }
    await store.receive(.policiesLoaded(.success(allPolicies))) {
      $0.phase = .loaded
      $0.policies = allPolicies
      $0.path = [.main(MainFeature.State(policies: allPolicies))]
    }
    await store.send(.retryTapped)  // nothing to retry once loaded
    await store.finish()
  }

  @Test(arguments: MainFeature.Tab.allCases)
  func aPolicyInAnyTabPushesItsDetailOntoTheRootStack(tab: MainFeature.Tab) async {
    bookmarks.client.toggle(2)
    var state = loadedState(tab: tab)
    state.path[id: 0] = {
      var main = MainFeature.State(policies: allPolicies)
      main.selectedTab = tab
      main.selectedCategory = tab == .categories ? "Housing" : nil
      main.bookmarks = [2]
      main.searchText = tab == .search ? "jeonse" : ""
      return .main(main)
    }()
    let store = makeStore(state)
    await store.send(.path(.element(id: 0, action: .main(.policyTapped(2)))))
    await store.receive(.path(.element(id: 0, action: .main(.delegate(.showPolicy(2)))))) {
      $0.path.append(detail(jeonse, bookmarked: true))
    }
    #expect(store.state.path.ids == [0, 1])
    await store.finish()
  }

  @Test func detailsPushRelatedDetailsAndBackDismissesOnlyTheTopOne() async {
    var state = loadedState()
    state.path.append(detail(rent))
    let store = makeStore(state)
    await store.send(.path(.element(id: 1, action: .detail(.relatedTapped(3)))))
    await store.receive(.path(.element(id: 1, action: .detail(.delegate(.showPolicy(3)))))) {
      $0.path.append(detail(account))
    }
    await store.send(.path(.element(id: 2, action: .detail(.relatedTapped(1)))))
    await store.receive(.path(.element(id: 2, action: .detail(.delegate(.showPolicy(1)))))) {
      $0.path.append(detail(rent))
    }
    await store.send(.path(.element(id: 3, action: .detail(.backTapped))))
    await store.receive(.path(.popFrom(id: 3))) { $0.path.pop(from: 3) }
    #expect(store.state.path.ids == [0, 1, 2])
    await store.finish()
  }

  @Test func homePopsEveryDetailAtOnceAndKeepsTheMainScreen() async {
    var state = loadedState()
    state.path.append(contentsOf: [detail(rent), detail(jeonse), detail(account)])
    let store = makeStore(state)
    await store.send(.path(.element(id: 2, action: .detail(.homeTapped))))
    await store.receive(.path(.element(id: 2, action: .detail(.delegate(.goHome))))) {
      $0.path.pop(to: 0)
    }
    #expect(store.state.path.count == 1)
    await store.finish()
  }

  @Test func aPoppedDetailStopsObservingBookmarks() async {
    var state = loadedState()
    state.path.append(detail(rent))
    let store = makeStore(state)
    await store.send(.path(.element(id: 1, action: .detail(.onAppear))))
    await store.receive(.path(.element(id: 1, action: .detail(.bookmarksChanged([])))))
    #expect(bookmarks.observerCount == 1)
    bookmarks.client.toggle(1)  // another screen bookmarks this policy: this one hears it
    await store.receive(.path(.element(id: 1, action: .detail(.bookmarksChanged([1]))))) {
      $0.path[id: 1] = detail(rent, bookmarked: true)
    }
    await store.send(.path(.element(id: 1, action: .detail(.backTapped))))
    await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    await store.finish()  // nothing left running: the observation ended with its screen
    #expect(bookmarks.observerCount == 0)
  }

  @Test func homeStopsTheObservationsOfEveryDetailItPops() async {
    var state = loadedState()
    state.path.append(contentsOf: [detail(rent), detail(jeonse)])
    let store = makeStore(state)
    for id: StackElementID in [1, 2] {
      await store.send(.path(.element(id: id, action: .detail(.onAppear))))
      await store.receive(.path(.element(id: id, action: .detail(.bookmarksChanged([])))))
    }
    #expect(bookmarks.observerCount == 2)
    await store.send(.path(.element(id: 2, action: .detail(.homeTapped))))
    await store.receive(.path(.element(id: 2, action: .detail(.delegate(.goHome))))) {
      $0.path.pop(to: 0)
    }
    await store.finish()
    #expect(bookmarks.observerCount == 0)
  }

  @Test func aStaleActionForAPoppedDetailIsReportedNotACrash() async {
    var state = loadedState()
    state.path.append(detail(rent))
    let store = makeStore(state)
    await store.send(.path(.element(id: 1, action: .detail(.homeTapped))))
    await store.receive(.path(.element(id: 1, action: .detail(.delegate(.goHome))))) {
      $0.path.pop(to: 0)
    }
    await withKnownIssue {
      await store.send(.path(.element(id: 1, action: .detail(.bookmarkTapped))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("not on the stack (id #1)") }
    }
    #expect(bookmarks.ids.withLock { $0 }.isEmpty)  // the stale tap bookmarked nothing
    await store.finish()
  }

  @Test func showingAPolicyThatDoesNotExistIsReportedAndChangesNothing() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.path(.element(id: 0, action: .main(.delegate(.showPolicy(99))))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("no policy 99") }
    }
    #expect(store.state.path.count == 1)
  }
}
