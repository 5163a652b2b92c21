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

  public init(_ name: String) { self.name = name }

  public var isPersistent: Bool { false }
  public func load(from storage: SharedStorage) throws -> Value? { nil }
  public func save(_ value: Value, to storage: SharedStorage) throws {}
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
