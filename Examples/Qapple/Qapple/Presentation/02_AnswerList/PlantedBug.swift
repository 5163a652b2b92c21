import Cascade

/// A bug planted on purpose, for the exploration tests to prove they catch it; the app always
/// runs with `.none`.
///
/// It is a dependency so that a test turns it on the way it overrides any client, and the app
/// keeps using only the library's public API:
///
/// ```swift
/// let store = TestStore(initialState: AnswerListFeature.State(question: question)) {
///   AnswerListFeature()
/// } withDependencies: {
///   $0.qapplePlantedBug = .pageLoadWithoutCancelInFlight
/// }
/// ```
public enum QapplePlantedBug: Sendable, Equatable {
  /// The app as shipped.
  case none
  /// A page load does not cancel the one in flight: appearing twice before the first page
  /// landed loads it twice at once.
  case pageLoadWithoutCancelInFlight
}

extension QapplePlantedBug: DependencyKey {
  public static let liveValue = QapplePlantedBug.none
  public static let testValue = QapplePlantedBug.none
}

extension DependencyValues {
  /// The bug planted for an exploration test; `.none` unless a test sets it.
  public var qapplePlantedBug: QapplePlantedBug {
    get { self[QapplePlantedBug.self] }
    set { self[QapplePlantedBug.self] = newValue }
  }
}
