import Cascade

/// A bug planted on purpose, for the exploration tests to prove they catch it; the app always
/// runs with `.none`.
///
/// It is a dependency so that a test turns it on the way it overrides any client, and the app
/// keeps using only the library's public API:
///
/// ```swift
/// let store = TestStore(initialState: AppFeature.State()) {
///   AppFeature()
/// } withDependencies: {
///   $0.tapTapPlantedBug = .lateCheckReopensTheApp
/// }
/// ```
public enum TapTapPlantedBug: Sendable, Equatable {
  /// The app as shipped.
  case none
  /// Opening the app forgets to check that it is still on the splash: a second version check
  /// (the app appeared twice) opens it again from the settings, over what the user did.
  case lateCheckReopensTheApp
}

extension TapTapPlantedBug: DependencyKey {
  public static let liveValue = TapTapPlantedBug.none
  public static let testValue = TapTapPlantedBug.none
}

extension DependencyValues {
  /// The bug planted for an exploration test; `.none` unless a test sets it.
  public var tapTapPlantedBug: TapTapPlantedBug {
    get { self[TapTapPlantedBug.self] }
    set { self[TapTapPlantedBug.self] = newValue }
  }
}
