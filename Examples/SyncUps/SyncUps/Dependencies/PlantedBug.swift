import Cascade

/// A bug planted on purpose, for the exploration tests to prove they catch it; the app always
/// runs with `.none`. Not part of TCA's SyncUps: a dependency so that a test turns it on the way
/// it overrides any client.
///
/// ```swift
/// let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: syncUp))) {
///   RecordMeeting()
/// } withDependencies: {
///   $0.syncUpsPlantedBug = .tickWhileAlertShows
/// }
/// ```
enum SyncUpsPlantedBug: Sendable, Equatable {
  /// The app as ported.
  case none
  /// The meeting's timer forgets its guard: time runs on while the "End meeting?" alert asks.
  case tickWhileAlertShows
}

extension SyncUpsPlantedBug: DependencyKey {
  static let liveValue = SyncUpsPlantedBug.none
  static let testValue = SyncUpsPlantedBug.none
}

extension DependencyValues {
  /// The bug planted for an exploration test; `.none` unless a test sets it.
  var syncUpsPlantedBug: SyncUpsPlantedBug {
    get { self[SyncUpsPlantedBug.self] }
    set { self[SyncUpsPlantedBug.self] = newValue }
  }
}
