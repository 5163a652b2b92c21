/// A key for a dependency that has values for tests and previews: the interface half of a
/// dependency, which a module that must not link the live implementation can declare.
///
/// Most dependencies conform to ``DependencyKey`` instead, which adds the live value.
public protocol TestDependencyKey {
  /// The type of the dependency's value.
  associatedtype Value: Sendable = Self

  /// The value tests use unless they override it: usually one whose endpoints fail the test
  /// when called, so a test states every dependency it relies on.
  static var testValue: Value { get }

  /// The value previews (and the example executables' offline modes) use: canned data, no
  /// network, no disk.
  static var previewValue: Value { get }
}

/// A key that registers a dependency: its live value, and optionally test and preview values.
///
/// The whole registration idiom, for a client written as a struct of closures:
///
/// ```swift
/// struct NumberFactClient: Sendable {
///   var fetch: @Sendable (Int) async throws -> String
/// }
///
/// extension NumberFactClient: DependencyKey {
///   static let liveValue = NumberFactClient { n in "\(n) is a good number." }
///   static let testValue = NumberFactClient { _ in
///     reportUnimplemented("NumberFactClient.fetch")
///     return ""
///   }
///   static let previewValue = NumberFactClient { n in "\(n) is a preview number." }
/// }
///
/// extension DependencyValues {
///   var numberFact: NumberFactClient {
///     get { self[NumberFactClient.self] }
///     set { self[NumberFactClient.self] = newValue }
///   }
/// }
/// ```
///
/// A feature then reads it with `@Dependency(\.numberFact) var numberFact`, and a test
/// overrides it with `$0.numberFact.fetch = { "\($0) is a test number." }`.
///
/// A key without a `testValue` fails any test that uses it, with a message saying how to
/// override it; it then falls back to `previewValue`. Setting one of its closures
/// (`$0.numberFact.fetch = { ... }` in a test's `withDependencies`) reads it first, and that
/// read is not a use: the closures the test did not set are the live value's.
public protocol DependencyKey: TestDependencyKey {
  /// The type of the dependency's value: declared again here so that a key giving only a
  /// `liveValue` (`static let liveValue = Lookup(...)`) fixes it.
  associatedtype Value: Sendable = Self

  /// The value used when the app runs.
  static var liveValue: Value { get }
}

extension TestDependencyKey {
  /// By default, previews use the test value.
  public static var previewValue: Value { testValue }
}

extension DependencyKey {
  /// By default, previews use the live value.
  public static var previewValue: Value { liveValue }

  /// Reached only when the key declares no test value: fails the test that used it, unless
  /// the dependency is being set (`$0.numberFact.fetch = { ... }` in a test's
  /// `withDependencies` reads the client before changing one of its closures).
  public static var testValue: Value {
    if DependencyValues._isSetting { return previewValue }
    reportRuntimeWarningAtUserSite(
      """
      The dependency '\(Self.self)' was used in a test but has no test value.

      Override it where the store is created, for example:

        Store(initialState: ...) { Feature() } withDependencies: {
          $0[\(Self.self).self] = <a value for this test>
        }

      or give '\(Self.self)' a 'static let testValue' that fails when called. The preview \
      value is used for now.
      """,
      fileID: #fileID, line: #line)
    return previewValue
  }
}
