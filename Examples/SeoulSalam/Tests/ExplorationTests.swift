import Cascade
import CascadeExampleSeoulSalam
import CascadeTesting
import Foundation
import Testing

/// Every ordering, to a bounded depth, of what a user does (observe, stop, retry, type one of two
/// texts, reset, open and close a restaurant), the listings stream's deliveries (two snapshots,
/// the second without a restaurant, then an outage) and the search clock's deadlines. What must
/// hold after every event: the results are exactly the restaurants matching the query; a query
/// only ever becomes the text the user typed last (never results for an older text); no listing
/// arrives once the observation was stopped; a detail shows its restaurant as listed now, or says
/// it was removed.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct SeoulSalamExplorationTests {
  typealias State = RestaurantFeature.State
  typealias Action = RestaurantFeature.Action

  static let kebab = restaurant("r1", "Kebab House", category: "Turkish")
  static let cafe = restaurant("r2", "Salam Cafe", category: "Cafe")

  static func restaurant(_ id: String, _ name: String, category: String) -> Restaurant {
    Restaurant(
      id: id, name: name, category: category, address: "1 Usadan-ro",
      addressKorean: "우사단로 1", district: "Yongsan", certification: .halalCertified,
      latitude: 37.53, longitude: 126.99)
  }

  static func explorer(
    depth: Int, plantedBug: SeoulSalamPlantedBug = .none
  ) -> Explorer<State, Action, Void> {
    Explorer<State, Action, Void>(depth: depth) {
      let clock = TestClock()
      let (full, shorter) = ([kebab, cafe], [kebab])
      let store = TestStore(initialState: State()) {
        RestaurantFeature()
      } withDependencies: {
        $0.continuousClock = clock
        $0.seoulSalamPlantedBug = plantedBug
        $0.restaurants = RestaurantClient {
          AsyncStream { listing in
            listing.yield(.success(full))
            listing.yield(.success(shorter))
            listing.yield(.failure(.connectionLost("the listener closed")))
            listing.finish()
          }
        }
      }
      return ExplorationSubject(store: store, clock: clock)
    } actions: { state, _ in
      actions(state)
    } invariant: { state, _ in
      problem(state)
    } transition: { step, _ in
      problem(step)
    }
  }

  static func actions(_ state: State) -> [Action] {
    var actions: [Action] = [state.isObserving ? .stopObserving : .startObserving]
    if state.failure != nil { actions.append(.retryButtonTapped) }
    actions += [.searchTextChanged("kebab"), .searchTextChanged("cafe")]
    if state.isSearching { actions.append(.resetSearchButtonTapped) }
    if state.detail != nil {
      actions.append(.detail(.presented(.closeButtonTapped)))
    } else if let first = state.results.first {
      actions.append(.restaurantTapped(first.id))
    }
    return actions
  }

  static func problem(_ state: State) -> String? {
    let folded = Restaurant.fold(state.query.trimmingCharacters(in: .whitespaces))
    let matching = state.restaurants.filter { folded.isEmpty || $0.matches(folded) }.map(\.id)
    if state.resultIDs != matching {
      return "results \(state.resultIDs) for '\(state.query)', but \(matching) match it"
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

  static func problem(_ step: ExplorationStep<State, Action>) -> String? {
    if step.after.query != step.before.query && step.after.query != step.after.searchText {
      return "results for '\(step.after.query)' while the text is '\(step.after.searchText)'"
    }
    if case .receive(.restaurantsUpdated, _) = step.event, !step.before.isObserving {
      return "a listing arrived after the observation stopped"
    }
    return nil
  }

  @Test func everyPathKeepsTheResultsForTheLatestText() async {
    let result = await Self.explorer(depth: 5).run()
    #expect(result.isComplete)
    #expect(result.depthCompleted == 5)
    print(result.report)
  }

  @Test func aSearchWithoutCancelInFlightShowsResultsForAnOlderText() async throws {
    let result = await Self.explorer(depth: 5, plantedBug: .searchWithoutCancelInFlight)
      .run(reportsFailure: false)
    let failure = try #require(result.counterexample)
    #expect(failure.depth == 4)
    #expect(result.depthCompleted == 3)
    print(failure.steps)
    #expect(await Self.explorer(depth: 3, plantedBug: .searchWithoutCancelInFlight).run().passed)
  }

  @Test func aStopWithoutCancelLetsListingsArriveAfterIt() async throws {
    let result = await Self.explorer(depth: 5, plantedBug: .stopWithoutCancel)
      .run(reportsFailure: false)
    let failure = try #require(result.counterexample)
    #expect(failure.depth == 3)
    #expect(result.depthCompleted == 2)
    print(failure.steps)
    #expect(await Self.explorer(depth: 2, plantedBug: .stopWithoutCancel).run().passed)
  }

  @Test(
    .enabled(if: fuzzComparison),
    arguments: [SeoulSalamPlantedBug.searchWithoutCancelInFlight, .stopWithoutCancel])
  func theSeededFuzzerOnTheSameBug(_ plantedBug: SeoulSalamPlantedBug) async throws {
    let fuzzer = try await SeoulSalamFuzzTests.fuzzer(plantedBug: plantedBug)
    let result = await fuzzer.run(seeds: SeoulSalamFuzzTests.seeds, reportsFailure: false)
    // The app's fuzzer never finds either bug in its 4 × 2,500 actions: its invariants check
    // that the results match the query and that the query catches up with the text, both of
    // which still hold; neither asks whether a query was ever an older text, or whether a
    // listing arrived after the stop. The explorer found them in 4 and 3 events.
    #expect(result.passed)
    #expect(
      result.actionCount == SeoulSalamFuzzTests.seeds.count * SeoulSalamFuzzTests.stepsPerSeed)
  }
}

/// The comparison with the seeded fuzzer runs whole fuzzing sessions (up to a minute in a debug
/// build); it runs when `CASCADE_FUZZ_COMPARISON` is set, and asserts the outcome recorded here.
let fuzzComparison = ProcessInfo.processInfo.environment["CASCADE_FUZZ_COMPARISON"] != nil
