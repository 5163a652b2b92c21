/// The identity of one screen on a navigation stack: stable while the screen is on the stack,
/// never reused by the same stack.
///
/// ```swift
/// let id = state.path.ids.last!
/// store.send(.path(.element(id: id, action: .saveTapped)))
/// ```
public struct StackElementID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByIntegerLiteral
{
  /// The number behind the id.
  public let rawValue: Int

  /// The id numbered `rawValue`. A stack numbers its elements from 0 as they are pushed, so a
  /// test can name the element it pushed.
  ///
  /// ```swift
  /// store.send(.path(.element(id: StackElementID(rawValue: 0), action: .saveTapped)))
  /// ```
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// The id numbered `value`, written as a number.
  ///
  /// ```swift
  /// store.send(.path(.element(id: 0, action: .saveTapped)))
  /// ```
  public init(integerLiteral value: Int) { self.rawValue = value }

  /// The hash a `Set` or `Dictionary` of ids buckets by: the number and the table's seed,
  /// mixed by a 64-bit finalizer instead of SipHash (ids come from the store's counter, or a
  /// decoded stack).
  ///
  /// The stack looks ids up several times an action, so this hash is on its per-action path.
  @inlinable
  public func _rawHashValue(seed: Int) -> Int {
    _sequentialHash(UInt64(bitPattern: Int64(rawValue)), seed: seed)
  }

  /// Orders ids by number: an element pushed earlier comes first.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  /// `#3`.
  public var description: String { "#\(rawValue)" }
}
