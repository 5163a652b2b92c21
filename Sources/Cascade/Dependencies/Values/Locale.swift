import Foundation

extension DependencyValues {
  /// The locale for formatting. Live: the user's current locale; tests: `en_US_POSIX`.
  public var locale: Locale {
    get { self[LocaleKey.self] }
    set { self[LocaleKey.self] = newValue }
  }
}

private enum LocaleKey: DependencyKey {
  static var liveValue: Locale { .autoupdatingCurrent }
  static var testValue: Locale { Locale(identifier: "en_US_POSIX") }
}
