import Foundation

/// A version string as stores and apps write them, compared the way people expect:
/// `1.10.0 > 1.9.3`, `1.2 == 1.2.0`, `2.0.0-beta.2 < 2.0.0`.
///
/// Numeric components compare as numbers, missing ones count as zero. A pre-release suffix
/// (after `-`) sorts before the release; build metadata (after `+` or in parentheses) is
/// ignored. Anything else is not a version.
public struct AppVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// The numeric components: `[1, 10, 0]`.
  public let components: [Int]
  /// The pre-release identifiers: `["beta", "2"]`, empty for a release.
  public let preRelease: [String]
  public let description: String

  /// Parses `text`; `nil` when it is not a version.
  public init?(_ text: String) {
    var core = Substring(text.trimmingCharacters(in: .whitespaces))
    if core.hasPrefix("v") || core.hasPrefix("V") { core = core.dropFirst() }
    if let build = core.firstIndex(where: { $0 == "+" || $0 == " " || $0 == "(" }) {
      core = core[..<build]
    }
    var preRelease: [String] = []
    if let dash = core.firstIndex(of: "-") {
      preRelease = core[core.index(after: dash)...]
        .split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard !preRelease.isEmpty, preRelease.allSatisfy({ !$0.isEmpty }) else { return nil }
      core = core[..<dash]
    }
    let parts = core.split(separator: ".", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { part in part.allSatisfy(\.isNumber) ? Int(part) : nil }
    guard !parts.isEmpty, numbers.count == parts.count else { return nil }
    var trimmed = numbers
    while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
    self.components = trimmed
    self.preRelease = preRelease
    self.description = text.trimmingCharacters(in: .whitespaces)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.components == rhs.components && lhs.preRelease == rhs.preRelease
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(components)
    hasher.combine(preRelease)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    for index in 0..<max(lhs.components.count, rhs.components.count) {
      let left = index < lhs.components.count ? lhs.components[index] : 0
      let right = index < rhs.components.count ? rhs.components[index] : 0
      if left != right { return left < right }
    }
    // Same numbers: a pre-release comes before the release.
    switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
    case (true, true), (true, false): return false
    case (false, true): return true
    case (false, false): break
    }
    for (left, right) in zip(lhs.preRelease, rhs.preRelease) where left != right {
      switch (Int(left), Int(right)) {
      case let (l?, r?): return l < r
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return left < right
      }
    }
    return lhs.preRelease.count < rhs.preRelease.count
  }
}
