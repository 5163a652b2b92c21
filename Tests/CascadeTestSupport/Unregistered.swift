import Cascade

/// A dependency with a live value and no test value: a test that uses it fails, naming it.
public struct Unregistered: DependencyKey, Sendable {
  public static let liveValue = Unregistered()
}
