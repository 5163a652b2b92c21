import Cascade

/// A bug planted on purpose, for the exploration tests to prove they catch it; the app always
/// runs with `.none`.
///
/// It is a dependency so that a test turns it on the way it overrides any client, and the app
/// keeps using only the library's public API:
///
/// ```swift
/// let store = TestStore(initialState: StartFeature.State()) {
///   StartFeature()
/// } withDependencies: {
///   $0.cleanAreaPlantedBug = .detailWithoutObservation
/// }
/// ```
public enum CleanAreaPlantedBug: Sendable, Equatable {
  /// The app as shipped.
  case none
  /// A detail screen does not observe the bookmarks when it appears: it shows the bookmark as
  /// it was when pushed, even after its own button toggled it.
  case detailWithoutObservation
}

extension CleanAreaPlantedBug: DependencyKey {
  public static let liveValue = CleanAreaPlantedBug.none
  public static let testValue = CleanAreaPlantedBug.none
}

extension DependencyValues {
  /// The bug planted for an exploration test; `.none` unless a test sets it.
  public var cleanAreaPlantedBug: CleanAreaPlantedBug {
    get { self[CleanAreaPlantedBug.self] }
    set { self[CleanAreaPlantedBug.self] = newValue }
  }
}
