/// Where a recorded action came from.
///
/// ```swift
/// let session = recorder.recording.session!
/// let userActions = session.steps.filter { $0.origin == .user }
/// ```
public enum ActionOrigin: String, Codable, Sendable, Equatable {
  /// Sent to the store from outside: a user's tap, a test's `send`, a command line's command.
  case user
  /// Sent by an effect: a `.run` effect's `Send`, or `.send` from a reducer.
  case effect
}
