/// A shared value found by name, kept in memory for as long as its storage lives (the process,
/// in an app; the test, in a test).
///
/// ```swift
/// @Shared(.inMemory("ranking")) var ranking = Ranking()
/// ```
///
/// The key is the name and the value's type: the same name with two types is two values.
public struct InMemoryKey<Value: Sendable>: SharedKey, Hashable, CustomStringConvertible {
  /// The name.
  public let name: String

  /// The key of the value named `name`; usually written `.inMemory(name)`.
  ///
  /// ```swift
  /// @Shared(InMemoryKey("ranking")) var ranking = Ranking()
  /// ```
  public init(_ name: String) { self.name = name }

  /// `false`: the value is never saved.
  public var isPersistent: Bool { false }
  /// `nil`: nothing is stored, so the first `Shared` for a name starts from its default.
  public func load(from storage: SharedStorage) throws -> Value? { nil }
  /// Does nothing: the value lives in memory only.
  public func save(_ value: Value, to storage: SharedStorage) throws {}
  /// `inMemory("ranking")`.
  public var description: String { "inMemory(\"\(name)\")" }
}

extension SharedKey {
  /// A value kept in memory under `name`; see ``InMemoryKey``.
  ///
  /// ```swift
  /// @Shared(.inMemory("ranking")) var ranking = Ranking()
  /// ```
  public static func inMemory<V>(_ name: String) -> Self where Self == InMemoryKey<V> {
    InMemoryKey(name)
  }
}
