import Cascade

/// A bug planted on purpose, for the exploration tests to prove they catch it; the app always
/// runs with `.none`.
///
/// It is a dependency so that a test turns it on the way it overrides any client, and the app
/// keeps using only the library's public API:
///
/// ```swift
/// let store = TestStore(initialState: RestaurantFeature.State()) {
///   RestaurantFeature()
/// } withDependencies: {
///   $0.seoulSalamPlantedBug = .searchWithoutCancelInFlight
/// }
/// ```
public enum SeoulSalamPlantedBug: Sendable, Equatable {
  /// The app as shipped.
  case none
  /// The search waits for typing to pause in a sleep that a newer text does not cancel, so
  /// results for an older text can land after a newer one was typed.
  case searchWithoutCancelInFlight
  /// Stopping the observation forgets to cancel it: updates keep arriving.
  case stopWithoutCancel
}

extension SeoulSalamPlantedBug: DependencyKey {
  public static let liveValue = SeoulSalamPlantedBug.none
  public static let testValue = SeoulSalamPlantedBug.none
}

extension DependencyValues {
  /// The bug planted for an exploration test; `.none` unless a test sets it.
  public var seoulSalamPlantedBug: SeoulSalamPlantedBug {
    get { self[SeoulSalamPlantedBug.self] }
    set { self[SeoulSalamPlantedBug.self] = newValue }
  }
}
