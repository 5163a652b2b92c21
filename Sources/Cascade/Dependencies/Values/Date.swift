import Foundation

extension DependencyValues {
  /// Where features get "now" from. Live: the system time; tests must set one, usually
  /// `.constant(...)`.
  ///
  /// ```swift
  /// @Dependency(\.date.now) var now
  /// ```
  public var date: DateGenerator {
    get { self[DateGenerator.self] }
    set { self[DateGenerator.self] = newValue }
  }
}

/// Produces the current date.
public struct DateGenerator: Sendable {
  private var generate: @Sendable () -> Date

  /// A generator from a function.
  public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }

  /// The current date. Setting it fixes the generator to that date, as in a test:
  ///
  /// ```swift
  /// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
  ///   $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
  /// }
  /// ```
  public var now: Date {
    get { generate() }
    set { generate = { newValue } }
  }

  /// The current date.
  public func callAsFunction() -> Date { generate() }

  /// Always `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }
}

extension DateGenerator: DependencyKey {
  /// The system time.
  public static let liveValue = DateGenerator { Date() }
  /// Reports each call as unimplemented and returns the reference date of 1970: a test that
  /// reads the date sets one, usually `.constant(...)`.
  public static var testValue: DateGenerator {
    DateGenerator {
      reportUnimplemented("DependencyValues.date (set it with $0.date = .constant(...))")
      return Date(timeIntervalSince1970: 0)
    }
  }
}
