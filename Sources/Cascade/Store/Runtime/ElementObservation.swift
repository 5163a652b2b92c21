import Observation
import Synchronization

/// How many collections have row stores, in the whole process: while none has, an identified
/// collection does not log its elements' in-place changes (only a row's store reads them), and
/// a row action costs what it did before row observation existed.
@usableFromInline
let _rowObservationCount = Atomic<Int>(0)

/// Whether some row store exists anywhere: collections log in-place element changes.
@inlinable
var _rowObservationIsActive: Bool { _rowObservationCount.load(ordering: .relaxed) > 0 }

/// What tells the observers of a row's store (a store scoped to one element of an identified
/// collection, or to one screen of a stack) that *its row* changed, and nothing else.
///
/// Every other store is observed as a whole, once per batch (`Observation.swift`). A row store
/// is observed on its own: reading its state registers on its own registrar, and at the end of
/// a batch its observers hear of a change only if the row was changed in place, replaced or
/// removed. The store learns which rows changed from the collection's change log
/// (`Collections/StructureLog.swift`): a batch that changed one row of 10,000 wakes the
/// observers of that row alone, at a cost that does not grow with the number of rows or of
/// observed row stores. A change the log cannot describe (a whole new collection assigned,
/// more changes than it keeps) wakes every observed row store of the collection.
///
/// Observers of a row store hear of a change at the end of the batch that made it, after the
/// state changed (a store observed as a whole tells its observers as the batch begins).
///
/// A row's store is observed through a core of its own, its watch: the stores scoped from it
/// are observed with it, and the rows of its own collections are looked at only when it
/// changed.
@MainActor
final class _ElementWatch: _CoreBase {
  /// Whether anyone listens to this row: an observer that read it since its last change, a
  /// subscriber, or the watched rows of its own collections.
  var isListenedTo: Bool { isObserved || hasSubscribers || hasElementGroups }

  /// Tells the row's observers and subscribers, if it has any, that it changed, and looks at
  /// the rows of its own collections.
  func rowDidChange() {
    willChange()
    didChange()
  }
}

/// The row stores of one collection (one parent store and key path), the collection's stamp
/// when they last heard of its changes, and how to read it now. It lives as long as the parent
/// store, and while it lives the process's collections log their in-place changes.
@MainActor
class _ElementGroupBase {
  init(core: _CoreBase) {
    _rowObservationCount.add(1, ordering: .relaxed)
    core.register(self)
  }

  isolated deinit {
    _rowObservationCount.subtract(1, ordering: .relaxed)
  }

  /// At the end of a batch of the core it is registered with: tells the stores of every row
  /// that changed since the last look.
  func batchDidEnd() {}
}

/// ``_ElementGroupBase`` for a collection with ids of type `ID`, read through `read`.
@MainActor
final class _ElementGroup<ID: Hashable>: _ElementGroupBase {
  /// The collection's stamp and change log now.
  let read: @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>)
  // Unchecked exclusivity: touched on the main actor only, one access at a time, at the end
  // of every batch.
  @exclusivity(unchecked) private var seenStamp: UInt64
  @exclusivity(unchecked) private var watches: [ID: [_WeakReference<_ElementWatch>]] = [:]
  /// The number of entries in `watches` at which released stores' entries are next dropped.
  private var sweepThreshold = 16
  private var entryCount = 0

  init(core: _CoreBase, read: @escaping @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>)) {
    self.read = read
    self.seenStamp = read().stamp
    super.init(core: core)
  }

  /// A new row store's watch, for the row with `id`.
  func add(_ watch: _ElementWatch, id: ID) {
    watches[id, default: []].append(_WeakReference(watch))
    entryCount += 1
    guard entryCount >= sweepThreshold else { return }
    watches = watches.compactMapValues { entries in
      let kept = entries.filter { $0.object != nil }
      return kept.isEmpty ? nil : kept
    }
    entryCount = watches.values.reduce(0) { $0 + $1.count }
    sweepThreshold = max(16, 2 * entryCount)
  }

  override func batchDidEnd() {
    let now = read()
    guard now.stamp != seenStamp else { return }
    defer { seenStamp = now.stamp }
    // Told after the look, from a list: a row's observer may send, and so end a batch, while
    // it hears of the change.
    var due: [_ElementWatch] = []
    func collect(_ id: ID) {
      guard let entries = watches[id] else { return }
      for entry in entries {
        // A row store nobody listens to has nothing to be told.
        if let watch = entry.object, watch.isListenedTo, !due.contains(where: { $0 === watch }) {
          due.append(watch)
        }
      }
    }
    if let start = now.log.start(since: seenStamp) {
      for index in start..<now.log.entries.endIndex {
        switch now.log.entries[index].change {
        case let .added(id), let .removed(id), let .modified(id): collect(id)
        case .reordered: break
        }
      }
    } else {
      // A change the log cannot describe: every row may have changed.
      for id in watches.keys { collect(id) }
    }
    for watch in due { watch.rowDidChange() }
  }
}
