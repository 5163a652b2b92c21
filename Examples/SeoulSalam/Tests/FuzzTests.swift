import Cascade
import CascadeExampleSeoulSalam
import CascadeTesting
import Foundation
import Testing

/// Random sessions through a real store on a test clock, with the shipped listings and their
/// change log (an addition, an edit, a removal, then an outage) replayed on that clock: typing
/// and resetting the search, observing stopped, restarted and retried, restaurants opened and
/// closed, detail actions after the detail closed, and injected snapshots and failures arriving
/// out of order. After every step: the results are exactly the restaurants matching the query,
/// the query catches up with the text once typing pauses, and a detail shows a restaurant that
/// is listed (as listed now), or says it was removed.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SeoulSalamFuzzTests {
  static let seeds: [UInt64] = [5, 8, 13, 21]
  /// A fifth under ThreadSanitizer, whose run is several times slower: enough steps to reach
  /// every screen and effect it checks for races; the plain run keeps the whole budget.
  /// `.ci/run` sets `CASCADE_THREAD_SANITIZER=1` for its ThreadSanitizer pass.
  static let stepsPerSeed = underThreadSanitizer ? 500 : 2_500
  static let texts = ["", "halal", "Itaewon", "용산", "cafe", "zzz", " kebab ", "CAFÉ", "Mapo"]

  @Test func randomSessionsKeepTheResultsAndTheDetailSound() async throws {
    let fuzzer = try await Self.fuzzer()
    let result = await fuzzer.run(seeds: Self.seeds)
    #expect(result.actionCount == Self.seeds.count * Self.stepsPerSeed || !result.passed)
  }

  /// The fuzzer above; `plantedBug` runs it on a mutated feature (see ExplorationTests).
  static func fuzzer(
    plantedBug: SeoulSalamPlantedBug = .none
  ) async throws -> Fuzzer<RestaurantFeature.State, RestaurantFeature.Action, Typing> {
    let shipped = try await Self.shippedListing()
    return Fuzzer<RestaurantFeature.State, RestaurantFeature.Action, Typing>(
      steps: Self.stepsPerSeed
    ) {
      let clock = TestClock()
      let store = Store(initialState: RestaurantFeature.State()) {
        RestaurantFeature()
      } withDependencies: {
        $0.continuousClock = clock
        $0.restaurants = .live(clock: clock)
        $0.seoulSalamPlantedBug = plantedBug
      }
      return FuzzSubject(store: store, context: Typing(clock: clock))
    } action: { state, _, random in
      Self.randomAction(state, shipped: shipped, using: &random)
    } settle: { _, typing in
      for _ in 0..<8 { await Task.yield() }
      await typing.clock.advance(by: .milliseconds(100))
    } allowsWarning: {
      $0.contains("while nothing was presented")
    } invariant: { step, typing in
      typing.record(step.action)
      return Self.problem(step.after, typing: typing)
    }
  }

  /// The clock, and the steps since the search text last changed.
  struct Typing {
    let clock: TestClock
    var quietSteps = 0

    mutating func record(_ action: RestaurantFeature.Action) {
      switch action {
      case .searchTextChanged: quietSteps = 0
      default: quietSteps += 1
      }
    }
  }

  static func shippedListing() async throws -> [Restaurant] {
    let clock = TestClock()
    for await update in RestaurantClient.live(changes: .none, clock: clock).updates() {
      return try update.get()
    }
    return []
  }

  static func problem(_ state: RestaurantFeature.State, typing: Typing) -> String? {
    let folded = Restaurant.fold(state.query.trimmingCharacters(in: .whitespaces))
    let matching = state.restaurants.filter { folded.isEmpty || $0.matches(folded) }.map(\.id)
    if state.resultIDs != matching {
      return "results \(state.resultIDs) for '\(state.query)', but \(matching) match it"
    }
    // The debounce is 300 ms and each step 100 ms: four quiet steps are plenty.
    if typing.quietSteps >= 4 && state.query != state.searchText {
      return "the query '\(state.query)' is still behind the text '\(state.searchText)'"
    }
    if let detail = state.detail {
      let listed = state.restaurants[id: detail.restaurant.id]
      if let listed, listed != detail.restaurant { return "the detail shows a stale restaurant" }
      if listed == nil && !detail.isRemoved {
        return "a detail for \(detail.restaurant.id), which is not listed"
      }
    }
    return nil
  }

  static func randomAction(
    _ state: RestaurantFeature.State, shipped: [Restaurant], using random: inout SeededGenerator
  ) -> RestaurantFeature.Action {
    let id = (state.restaurants.ids + ["nowhere"]).randomElement(using: &random)!
    switch Int.random(in: 0..<20, using: &random) {
    case 0: return .startObserving
    case 2: return .stopObserving
    case 3: return .retryButtonTapped
    case 1, 4...8: return .searchTextChanged(texts.randomElement(using: &random)!)
    case 9: return .resetSearchButtonTapped
    case 10, 11, 12: return .restaurantTapped(id)
    case 13: return .detail(.presented(.closeButtonTapped))
    case 14: return .detail(.dismiss)
    case 15:  // a late snapshot: part of the listing
      return .restaurantsUpdated(.success(shipped.filter { _ in Bool.random(using: &random) }))
    case 16: return .restaurantsUpdated(.failure(.connectionLost("injected")))
    case 17: return .searchPaused(state.searchText)  // a second debounce result
    default: return .restaurantTapped(id)
    }
  }
}

/// Whether this run is the ThreadSanitizer pass of `.ci/run` (`.ci/repeat-tests.sh` too), which
/// says so in the environment: `CASCADE_THREAD_SANITIZER=1 swift test --sanitize=thread`.
private let underThreadSanitizer =
  ProcessInfo.processInfo.environment["CASCADE_THREAD_SANITIZER"] == "1"
