/// A type-erased value that is both `Hashable` and `Sendable`: what `AnyHashable` is, for code
/// that must cross concurrency domains, such as a cancellation id built from a generic id.
///
/// ```swift
/// struct Row<ID: Hashable & Sendable>: Reducer {
///   // ...
///   return .run { _ in try await clock.sleep(for: .seconds(1)) }
///     .cancellable(id: AnyHashableSendable(state.id))
/// }
/// ```
///
/// Two values are equal when their wrapped values are (an `Int` 1 and a `UInt8` 1 are not:
/// the types must match, except that a wrapped `AnyHashableSendable` is looked through).
public struct AnyHashableSendable: Hashable, Sendable {
  /// The wrapped value.
  public let base: any Hashable & Sendable

  /// Wraps `base`; wrapping an `AnyHashableSendable` gives it back unchanged.
  public init(_ base: some Hashable & Sendable) {
    if let already = base as? AnyHashableSendable {
      self = already
    } else {
      self.base = base
    }
  }

  /// Whether the wrapped values are equal (and of one type).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  /// Hashes the wrapped value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(base))
  }
}

extension AnyHashableSendable: CustomStringConvertible, CustomDebugStringConvertible {
  /// The wrapped value's description.
  public var description: String { String(describing: base) }
  /// `AnyHashableSendable(<the wrapped value's debug description>)`.
  public var debugDescription: String { "AnyHashableSendable(\(String(reflecting: base)))" }
}

extension AnyHashableSendable: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral
{
  /// An `Int`.
  public init(integerLiteral value: Int) { self.init(value) }
  /// A `String`.
  public init(stringLiteral value: String) { self.init(value) }
  /// A `Bool`.
  public init(booleanLiteral value: Bool) { self.init(value) }
  /// A `Double`.
  public init(floatLiteral value: Double) { self.init(value) }
}
