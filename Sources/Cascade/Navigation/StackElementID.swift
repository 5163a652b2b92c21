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

  public init(rawValue: Int) { self.rawValue = rawValue }
  public init(integerLiteral value: Int) { self.rawValue = value }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  public var description: String { "#\(rawValue)" }
}
