import Cascade
import CascadeExampleSupport
import Foundation

/// SeoulSalam's scripted scenario: observe the live listings, search by name, category and
/// district (in Korean too), watch a live update change the results, lose the connection and
/// recover, open a restaurant.
@MainActor
public final class SeoulSalamScenario {
  private let print: ScenarioPrinter
  private let recorder: Recorder<RestaurantFeature.State, RestaurantFeature.Action>?
  private let clock: any Clock<Duration>
  private let checks: ScenarioChecks
  /// How long a step may take before the scenario calls it a failure. A wait ends as soon as
  /// its condition holds, so this only matters on a machine slowed down (by ThreadSanitizer,
  /// say), where 5 seconds was not always enough for the first load.
  private static let patience: Duration = .seconds(30)

  /// - Parameters:
  ///   - clock: The clock typing pauses on (real time for the executable).
  ///   - recorder: Records the session (`--record`).
  public init(
    clock: any Clock<Duration> = ContinuousClock(),
    recorder: Recorder<RestaurantFeature.State, RestaurantFeature.Action>? = nil,
    print: @escaping ScenarioPrinter
  ) {
    self.recorder = recorder
    self.clock = clock
    self.print = print
    self.checks = ScenarioChecks(print: print)
  }

  /// Runs the scenario; returns the expectations that failed (none when it passed).
  public func run() async -> [String] {
    let changes = StepClock()
    let (print, clock, recorder) = (self.print, self.clock, self.recorder)
    let store = Store(initialState: RestaurantFeature.State()) {
      RestaurantFeature()
        .printChanges(
          to: .closure { entry in MainActor.assumeIsolated { print(entry) } }, maxElements: 3
        )
        .record(into: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.restaurants = .live(clock: changes)
    }

    print("— Start observing the listings")
    store.send(.startObserving)
    _ = await waitUntil(store, timeout: Self.patience) { $0.restaurants.count > 0 }
    checks.expect(store.restaurants.count == 62, "62 restaurants arrive")

    await searches(in: store)
    await liveUpdatesAndRecovery(in: store, changes: changes)
    await detail(in: store)
    store.send(.stopObserving)
    checks.expect(!store.isObserving, "observation stops")
    return checks.failures
  }

  private func searches(in store: StoreOf<RestaurantFeature>) async {
    await search("murree", in: store)
    checks.expect(names(store) == ["Murree Pakistani Restaurant"], "a search by name finds it")
    await search("UZBEK", in: store)
    checks.expect(
      store.results.count == 5 && store.results.allSatisfy { $0.category == "Uzbek" },
      "a search by category, in any case")
    await search("마포구", in: store)
    let mapo = store.results.count
    checks.expect(
      mapo == 8 && store.results.allSatisfy { $0.district == "Mapo-gu" },
      "a search by district in Korean")
    await search("mapo", in: store)
    checks.expect(store.results.count == mapo, "the same district in English")
    await search("cafe andalus", in: store)
    checks.expect(names(store) == ["Café Andalus"], "accents do not matter")

  }

  private func liveUpdatesAndRecovery(in store: StoreOf<RestaurantFeature>, changes: StepClock)
    async
  {
    print("— A live update while searching")
    await search("itaewon halal", in: store)
    checks.expect(store.results.isEmpty, "nothing matches yet")
    await nextChange(store, changes) { $0.restaurants.count == 63 }
    checks.expect(
      names(store) == ["Itaewon Halal Chicken"], "a new restaurant appears in the results")
    await nextChange(store, changes) {
      $0.restaurants.contains { $0.name.hasSuffix("(renovated)") }
    }
    await nextChange(store, changes) { $0.restaurants.count == 62 }
    checks.expect(store.restaurants.count == 62, "edits and removals arrive too")

    print("— The connection drops, then recovers")
    await nextChange(store, changes) { $0.failure != nil }
    checks.expect(
      store.failure == .connectionLost("connection to the listings lost") && !store.isObserving,
      "the failure is shown, not printed")
    store.send(.retryButtonTapped)
    _ = await waitUntil(store, timeout: Self.patience) { $0.failure == nil && $0.isObserving }
    checks.expect(store.failure == nil && store.isObserving, "retry recovers")

  }

  private func detail(in store: StoreOf<RestaurantFeature>) async {
    print("— Open a restaurant")
    await search("", in: store)
    let id = store.results.first!.id
    store.send(.restaurantTapped(id))
    checks.expect(store.detail?.restaurant.id == id, "the detail is presented")
    store.send(.detail(.presented(.closeButtonTapped)))
    _ = await waitUntil(store, timeout: Self.patience) { $0.detail == nil }
    checks.expect(store.detail == nil, "it closes itself")
  }

  private func search(_ text: String, in store: StoreOf<RestaurantFeature>) async {
    store.send(.searchTextChanged(text))
    _ = await waitUntil(store, timeout: Self.patience) { $0.query == text }
    print("  ⇒ \"\(text)\": \(store.results.count) results \(names(store).prefix(3))")
  }

  private func nextChange(
    _ store: StoreOf<RestaurantFeature>, _ clock: StepClock,
    until condition: @escaping @MainActor @Sendable (RestaurantFeature.State) -> Bool
  ) async {
    // Bounded: a regression fails the test instead of spinning forever.
    for _ in 0..<100_000 {
      guard clock.sleeperCount == 0 else { break }
      await Task.yield()
    }
    clock.step()
    _ = await waitUntil(store, condition)
  }

  private func names(_ store: StoreOf<RestaurantFeature>) -> [String] { store.results.map(\.name) }
}
