import Cascade

/// A bug planted on purpose, for the exploration tests to prove they catch it; the app always
/// runs with `.none`.
///
/// It is a dependency so that a test turns it on the way it overrides any client, and the app
/// keeps using only the library's public API:
///
/// ```swift
/// let store = TestStore(initialState: MainFeature.State()) {
///   MainFeature()
/// } withDependencies: {
///   $0.touchSchoolPlantedBug = .popWithoutSavingBatch
/// }
/// ```
public enum TouchSchoolPlantedBug: Sendable, Equatable {
  /// The app as shipped.
  case none
  /// Popping a game forgets the taps waiting in its batch: its batch timer ends with the screen
  /// and nobody writes them.
  case popWithoutSavingBatch
}

extension TouchSchoolPlantedBug: DependencyKey {
  public static let liveValue = TouchSchoolPlantedBug.none
  public static let testValue = TouchSchoolPlantedBug.none
}

extension DependencyValues {
  /// The bug planted for an exploration test; `.none` unless a test sets it.
  public var touchSchoolPlantedBug: TouchSchoolPlantedBug {
    get { self[TouchSchoolPlantedBug.self] }
    set { self[TouchSchoolPlantedBug.self] = newValue }
  }
}
