import Synchronization

/// The last few changes to an identified collection (ids added, removed, reordered, and
/// elements modified in place), each under the stamp the collection had before it: how a
/// navigation operator learns which elements a push or a pop added or removed without
/// comparing every id, and how a store learns which row stores' rows changed without reading
/// every row.
///
/// Stamps are unique in the process and a collection's stamp changes with every change, so when a collection's log holds an entry made at stamp `s`, the collection is the
/// one its operator saw at `s` plus exactly the changes logged from there. A collection that
/// went through an unlogged change (a reset) or through more changes than the log keeps, or
/// that is a copy which never had stamp `s`, does not find `s`, and the operator compares ids.
@usableFromInline
struct _StructureLog<ID: Hashable> {
  @usableFromInline
  enum Change {
    case added(ID)
    case removed(ID)
    /// Elements moved; the set of ids is the same.
    case reordered
    /// The element with this id was changed in place (or replaced by one with its id).
    case modified(ID)
  }

  @usableFromInline
  struct Entry {
    @usableFromInline let stamp: UInt64
    @usableFromInline let change: Change

    @inlinable
    init(stamp: UInt64, change: Change) {
      self.stamp = stamp
      self.change = change
    }
  }

  /// At most `2 * kept` entries; the oldest `kept` are dropped at once when it is full, so an
  /// append is O(1) amortized.
  @inlinable static var kept: Int { 16 }
  @usableFromInline var entries: [Entry] = []

  @inlinable
  init() {}

  /// Logs `change`, made to a collection whose stamp was `stamp`.
  @inlinable
  mutating func record(_ change: Change, at stamp: UInt64) {
    if entries.count == 2 * Self.kept { entries.removeFirst(Self.kept) }
    entries.append(Entry(stamp: stamp, change: change))
  }

  /// Forgets every change: the next operator that looks compares ids.
  @inlinable
  mutating func reset() {
    if !entries.isEmpty { entries.removeAll(keepingCapacity: true) }
  }

  /// The position in ``entries`` of the first change made since the collection had `stamp`
  /// (the changes run from there to the end, oldest first), or `nil` when the log cannot tell.
  @inlinable
  func start(since stamp: UInt64) -> Int? {
    entries.lastIndex(where: { $0.stamp == stamp })
  }
}

private let _stampCounter = Atomic<UInt64>(0)

/// A process-unique number given to a collection each time its set of ids changes.
///
/// Navigation reducers compare a collection's stamp before and after an action: equal stamps
/// mean no element was added or removed, so the common case costs one integer compare instead
/// of a scan of the ids.
@usableFromInline
func _nextStructureStamp() -> UInt64 {
  _stampCounter.wrappingAdd(1, ordering: .relaxed).newValue
}

/// A collection that logs its elements' in-place changes once whoever reads them turns its log
/// on (``IdentifiedArray/_startLoggingElementChanges()``): until then an in-place change costs
/// what it would without a log, whatever else the process holds.
protocol _ElementChangeLogging {
  /// Turns the log of in-place element changes on, for this value and its copies.
  mutating func _startLoggingElementChanges()
}

extension _ElementChangeLogging {
  /// Turns the log on for the value of this type stored at `address` (a field found by its
  /// offset, for a reader that knows the field only by its type).
  static func _startLoggingElementChanges(at address: UnsafeMutableRawPointer) {
    address.assumingMemoryBound(to: Self.self).pointee._startLoggingElementChanges()
  }
}

extension IdentifiedArray: _ElementChangeLogging {}
