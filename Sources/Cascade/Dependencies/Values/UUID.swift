import Foundation

extension DependencyValues {
  /// Where features get new identifiers from. Live: random UUIDs; tests must set one,
  /// usually `.incrementing`.
  public var uuid: UUIDGenerator {
    get { self[UUIDGenerator.self] }
    set { self[UUIDGenerator.self] = newValue }
  }
}

/// Produces UUIDs.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// // ...
/// state.rows.append(Row.State(id: uuid()))
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// A generator from a function.
  public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }

  /// A new UUID.
  public func callAsFunction() -> UUID { generate() }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> Self { Self { uuid } }

  /// 00000000-0000-0000-0000-000000000000, then ...0001, ...0002 and so on: predictable ids
  /// for tests. Each use of `.incrementing` starts its own sequence.
  public static var incrementing: Self {
    let next = Guarded<UInt64>(0)
    return Self {
      let value = next.withLock { value -> UInt64 in
        defer { value += 1 }
        return value
      }
      return UUID(incrementing: value)
    }
  }
}

extension UUID {
  /// The UUID whose last twelve hex digits are `value` (higher bits are dropped):
  /// `UUID(incrementing: 1)` is
  /// 00000000-0000-0000-0000-000000000001.
  public init(incrementing value: UInt64) {
    let hex = String(value, radix: 16, uppercase: true)
    let digits = String(repeating: "0", count: 12 - min(hex.count, 12)) + hex.suffix(12)
    self.init(uuidString: "00000000-0000-0000-0000-\(digits)")!
  }
}

extension UUID {
  /// The UUID whose last twelve hex digits are `intValue`: `UUID(0)` is
  /// 00000000-0000-0000-0000-000000000000 and `UUID(1)` ends in 1, the ids
  /// ``UUIDGenerator/incrementing`` makes. Write expected ids in tests with it.
  ///
  /// ```swift
  /// await store.send(.addButtonTapped) {
  ///   $0.todos.insert(Todo.State(id: UUID(0)), at: 0)
  /// }
  /// ```
  ///
  /// - Precondition: `intValue` is not negative.
  public init(_ intValue: Int) {
    precondition(intValue >= 0, "UUID(\(intValue)): the value must not be negative")
    self.init(incrementing: UInt64(intValue))
  }
}

extension UUIDGenerator: DependencyKey {
  /// Random UUIDs.
  public static let liveValue = UUIDGenerator { UUID() }
  /// Reports each call as unimplemented and returns 00000000-0000-0000-0000-000000000000: a test
  /// that makes ids sets a generator, usually `.incrementing`.
  public static var testValue: UUIDGenerator {
    UUIDGenerator {
      reportUnimplemented("DependencyValues.uuid (set it with $0.uuid = .incrementing)")
      return UUID(incrementing: 0)
    }
  }
}
