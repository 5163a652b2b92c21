import Synchronization

/// Counts the slow-path lookups (reading an enum's case list from its metadata) made by the
/// task that binds it: tests check it stays once per case. Read on the slow path only.
@usableFromInline
final class _CaseLookupCounter: Sendable {
  @TaskLocal @usableFromInline static var current: _CaseLookupCounter?
  let count = Atomic<Int>(0)
  init() {}

  /// Runs `body` and returns how many lookups it made.
  static func counting(_ body: () -> Void) -> Int {
    let counter = _CaseLookupCounter()
    $current.withValue(counter, operation: body)
    return counter.count.load(ordering: .relaxed)
  }
}

/// What one embed-only case path has learned about its enum's cases.
///
/// The first time a case path meets a root of a case it has not seen, it asks the enum's
/// metadata (once) whether that case is the one its embed function builds. The answer is kept here, so every
/// later extraction is a tag read and a compare. Lock-free for tags below 64, which covers
/// every action enum in practice.
@usableFromInline
final class _CaseTagCache: Sendable {
  /// `-1` until the matching case is found, then `tag << 3 | flags`, the flags being
  /// ``indirect``, ``inPlace`` and ``soleCase``.
  @usableFromInline let matched = Atomic<Int64>(-1)

  /// The case is `indirect`: its payload lives in a box.
  @usableFromInline static let indirect: Int64 = 1
  /// The payload is stored unchanged at the start of the enum's memory: no tag bits are kept
  /// in it, so it is read in place instead of through the destructive projection of a copy.
  /// With ``indirect``: the payload's box's address is, and the payload is read in its box.
  @usableFromInline static let inPlace: Int64 = 2
  /// The enum has this one case: every value holds it, so no tag is read.
  @usableFromInline static let soleCase: Int64 = 4

  /// The value `matched` holds for `tag` with `flags`.
  @usableFromInline
  static func matched(tag: UInt32, flags: Int64) -> Int64 { Int64(tag) << 3 | flags }
  private let rejectedLow = Atomic<UInt64>(0)
  private let rejectedHigh = Guarded<Set<UInt32>>([])

  @usableFromInline init() {}

  @usableFromInline
  func isRejected(_ tag: UInt32) -> Bool {
    if tag < 64 { return rejectedLow.load(ordering: .relaxed) & (1 << UInt64(tag)) != 0 }
    return rejectedHigh.withLock { $0.contains(tag) }
  }

  @usableFromInline
  func reject(_ tag: UInt32) {
    if tag < 64 {
      rejectedLow.bitwiseOr(1 << UInt64(tag), ordering: .relaxed)
    } else {
      _ = rejectedHigh.withLock { $0.insert(tag) }
    }
  }
}
