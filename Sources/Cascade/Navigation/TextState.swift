/// Text for alerts, dialogs and buttons, as a plain value a test can compare and a headless
/// program can print.
///
/// ```swift
/// let title: TextState = "Update required"
/// let message = TextState("Version \(latest) is available.")
/// ```
public struct TextState: Hashable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByStringInterpolation
{
  /// The text.
  public let string: String

  /// Text from a string.
  public init(_ string: String) { self.string = string }

  /// Text from a string literal.
  ///
  /// ```swift
  /// let title: TextState = "Update required"
  /// ```
  public init(stringLiteral value: String) { self.string = value }

  /// The text itself.
  public var description: String { string }
}
