import Foundation

extension DependencyValues {
  /// The time zone for dates shown to the user. Live: the current one; tests: UTC.
  public var timeZone: TimeZone {
    get { self[TimeZoneKey.self] }
    set { self[TimeZoneKey.self] = newValue }
  }
}

private enum TimeZoneKey: DependencyKey {
  static var liveValue: TimeZone { .autoupdatingCurrent }
  static var testValue: TimeZone { TimeZone(identifier: "UTC")! }
}
