/// How much a ``TestStore`` insists on: every state change, received action and effect
/// (`.on`), or only what the test asserts (`.off`).
///
/// ```swift
/// store.exhaustivity = .off(showSkippedAssertions: true)
/// await store.send(.loginSucceeded) { $0.isLoggedIn = true }   // other changes are not checked
/// ```
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change must be asserted, every received action received, every effect
  /// finished by the end of the test.
  case on
  /// Only what the test asserts is checked; with `showSkippedAssertions`, what was skipped is
  /// reported as known issues, so it shows up without failing the test.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, silently.
  public static let off = Exhaustivity.off(showSkippedAssertions: false)
}
