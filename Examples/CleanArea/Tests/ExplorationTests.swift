import Cascade
import CascadeExampleCleanArea
import CascadeTesting
import Foundation
import Testing

/// Every ordering, to a bounded depth, of what a user does once the policies are loaded (the
/// main screen and each detail appearing, a policy opened from the list or from a detail's
/// related ones, a bookmark toggled, back, home) and the bookmark store's deliveries to every
/// screen that observes it. What must hold after every event: every screen with no bookmark
/// delivery on its way shows exactly the stored bookmarks (the main screen's set, a detail's
/// mark), and a delivery never carries a set the store does not hold at that moment or later.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct CleanAreaExplorationTests {
  typealias State = StartFeature.State
  typealias Action = StartFeature.Action

  static let policies = [
    Policy(id: 1, title: "Rent Support", category: "Housing", relatedIDs: [2]),
    Policy(id: 2, title: "Jeonse Loan", category: "Housing", relatedIDs: [1]),
  ]

  /// The stored bookmarks in memory, with the screens that observe them: which screen asked for
  /// updates (the one appearing when the stream was made), and how many deliveries to each are
  /// still on their way.
  final class Bookmarks: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Set<Policy.ID>()
    private var subscribers: [StackElementID: AsyncStream<Set<Policy.ID>>.Continuation] = [:]
    private var pendingByScreen: [StackElementID: Int] = [:]
    private var appearedScreens = Set<StackElementID>()
    private var appearing: StackElementID?

    var current: Set<Policy.ID> { lock.withLock { stored } }
    var appeared: Set<StackElementID> { lock.withLock { appearedScreens } }
    func pending(_ id: StackElementID) -> Int { lock.withLock { pendingByScreen[id, default: 0] } }

    var client: BookmarkClient {
      BookmarkClient(
        current: { self.current },
        toggle: { id in
          let sends = self.lock.withLock {
            () -> [(AsyncStream<Set<Policy.ID>>.Continuation, Set<Policy.ID>)] in
            if self.stored.remove(id) == nil { self.stored.insert(id) }
            for screen in self.subscribers.keys { self.pendingByScreen[screen, default: 0] += 1 }
            return self.subscribers.values.map { ($0, self.stored) }
          }
          for (continuation, value) in sends { continuation.yield(value) }
        },
        updates: {
          AsyncStream { continuation in
            let (screen, value) = self.lock.withLock { () -> (StackElementID?, Set<Policy.ID>) in
              guard let screen = self.appearing else { return (nil, self.stored) }
              self.subscribers[screen] = continuation
              self.pendingByScreen[screen, default: 0] += 1
              return (screen, self.stored)
            }
            guard let screen else {
              continuation.finish()
              return
            }
            continuation.onTermination = { _ in
              self.lock.withLock {
                self.subscribers[screen] = nil
                self.pendingByScreen[screen] = nil
              }
            }
            continuation.yield(value)
          }
        })
    }

    /// Called before the reducer handles `action`.
    func see(_ action: Action) {
      lock.withLock {
        switch action {
        case .path(.element(let id, .main(.onAppear))), .path(.element(let id, .detail(.onAppear))):
          appearedScreens.insert(id)
          appearing = id
        case .path(.element(let id, .main(.bookmarksChanged))),
          .path(.element(let id, .detail(.bookmarksChanged))):
          pendingByScreen[id, default: 0] -= 1
        default: break
        }
      }
    }

    var key: String {
      lock.withLock {
        "stored \(stored.sorted()) appeared \(appearedScreens.sorted { "\($0)" < "\($1)" })"
      }
    }
  }

  static func explorer(
    depth: Int, plantedBug: CleanAreaPlantedBug = .none
  ) -> Explorer<State, Action, Bookmarks> {
    Explorer<State, Action, Bookmarks>(
      depth: depth,
      key: .custom { state, bookmarks in "\(stateDump(state))\n\(bookmarks.key)" }
    ) {
      let bookmarks = Bookmarks()
      var initial = State()
      initial.phase = .loaded
      initial.policies = policies
      initial.path = [.main(MainFeature.State(policies: policies))]
      let store = TestStore(initialState: initial) {
        StartFeature().intercept(before: { _, action in bookmarks.see(action) })
      } withDependencies: {
        $0.bookmarks = bookmarks.client
        $0.cleanAreaPlantedBug = plantedBug
      }
      return ExplorationSubject(store: store, context: bookmarks)
    } actions: { state, bookmarks in
      actions(state, appeared: bookmarks.appeared)
    } invariant: { state, bookmarks in
      problem(state, bookmarks: bookmarks)
    }
  }

  /// A screen appears before the user acts on it; only the top screen is acted on.
  static func actions(_ state: State, appeared: Set<StackElementID>) -> [Action] {
    guard let top = state.path.ids.last else { return [] }
    guard appeared.contains(top) else {
      switch state.path[id: top] {
      case .main?: return [.path(.element(id: top, action: .main(.onAppear)))]
      case .detail?: return [.path(.element(id: top, action: .detail(.onAppear)))]
      case nil: return []
      }
    }
    switch state.path[id: top] {
    case .main?:
      return [.path(.element(id: top, action: .main(.policyTapped(1))))]
    case .detail(let detail)?:
      var actions: [Action] = [.bookmarkTapped, .backTapped, .homeTapped].map {
        .path(.element(id: top, action: .detail($0)))
      }
      if state.path.count < 3, let related = detail.related.first {
        actions.append(.path(.element(id: top, action: .detail(.relatedTapped(related.id)))))
      }
      return actions
    case nil:
      return []
    }
  }

  static func problem(_ state: State, bookmarks: Bookmarks) -> String? {
    let stored = bookmarks.current
    for id in state.path.ids where bookmarks.pending(id) == 0 {
      switch state.path[id: id] {
      case .main(let main)? where bookmarks.appeared.contains(id):
        if main.bookmarks != stored {
          return "the main screen shows \(main.bookmarks.sorted()), stored \(stored.sorted())"
        }
      case .detail(let detail)?:
        if detail.isBookmarked != stored.contains(detail.policy.id) {
          return "the detail of \(detail.policy.id) shows bookmarked \(detail.isBookmarked), "
            + "stored \(stored.sorted())"
        }
      default: break
      }
    }
    return nil
  }

  @Test func everyScreenShowsTheStoredBookmarks() async {
    let result = await Self.explorer(depth: 7).run()
    #expect(result.isComplete)
    #expect(result.depthCompleted == 7)
    print(result.report)
  }

  @Test func aDetailThatDoesNotObserveShowsAStaleMark() async throws {
    let result = await Self.explorer(depth: 7, plantedBug: .detailWithoutObservation)
      .run(reportsFailure: false)
    let failure = try #require(result.counterexample)
    print(failure.steps)
    #expect(failure.depth == 4)
    #expect(result.depthCompleted == 3)
    #expect(await Self.explorer(depth: 3, plantedBug: .detailWithoutObservation).run().passed)
  }
}

extension CleanAreaExplorationTests {
  @Test(.enabled(if: fuzzComparison)) func theSeededFuzzerOnTheSameBug() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clean-area-explore-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let policies = try await PolicyClient.live().load()
    let fuzzer = CleanAreaFuzzTests.fuzzer(
      in: folder, policies: policies, plantedBug: .detailWithoutObservation)
    let result = await fuzzer.run(seeds: CleanAreaFuzzTests.seeds, reportsFailure: false)
    // The app's fuzzer never finds it in its 5 × 2,000 actions: it never sends a screen's
    // onAppear (so no screen observes the bookmarks, with or without the bug), and it checks the
    // stored bookmarks against the toggles, not what the screens show. The explorer found it in 4
    // events.
    #expect(result.passed)
    #expect(
      result.actionCount == CleanAreaFuzzTests.seeds.count * CleanAreaFuzzTests.stepsPerSeed)
  }
}

/// The comparison with the seeded fuzzer runs whole fuzzing sessions (up to a minute in a debug
/// build); it runs when `CASCADE_FUZZ_COMPARISON` is set, and asserts the outcome recorded here.
let fuzzComparison = ProcessInfo.processInfo.environment["CASCADE_FUZZ_COMPARISON"] != nil
