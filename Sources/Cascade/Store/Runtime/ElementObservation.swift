import Observation

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
/// store. While someone listens to one of its rows, the collection it holds logs its elements'
/// in-place changes: the group turns that log on in the parent's state, and only there (any
/// other collection in the process, and this one before anyone listens, logs nothing).
@MainActor
class _ElementGroupBase {
  init(core: _CoreBase) {
    core.register(self)
  }

  /// At the end of a batch of the core it is registered with: tells the stores of every row
  /// that changed since the last look.
  func batchDidEnd() {}
}

/// A row store's link to its collection's group: whether the group knows that someone listens
/// to the row, and how to tell it.
@MainActor
final class _RowListening {
  /// Whether the row is in its group's list of listened rows.
  var isKnown = false
  private let tell: @MainActor (_RowListening) -> Void

  init(tell: @escaping @MainActor (_RowListening) -> Void) { self.tell = tell }

  /// Tells the group that someone listens to the row.
  func start() { tell(self) }
}

/// ``_ElementGroupBase`` for a collection with ids of type `ID`, read through `read`.
///
/// It knows only the row stores someone listens to (an observer that read them since their
/// last change, a subscriber, watched rows of their own): a batch in which nobody listens to
/// any row costs one check, however many row stores are held.
@MainActor
final class _ElementGroup<ID: Hashable>: _ElementGroupBase {
  /// The collection's stamp and change log now, and whether it logs its elements' changes.
  let read: @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>, logs: Bool)
  /// Turns on the log of element changes of the collection in the parent's state; `false`
  /// when the parent's state cannot be written there (a read-only key path, a presented
  /// child): every listened row is then told at the end of every batch.
  let startLogging: @MainActor () -> Bool
  // Unchecked exclusivity: touched on the main actor only, one access at a time, at the end
  // of every batch.
  /// The collection's stamp when the listened rows last heard of its changes.
  @exclusivity(unchecked) private var seenStamp: UInt64 = 0
  /// The row stores someone listens to, by row, with their links.
  @exclusivity(unchecked) private var listened:
    [ID: [(watch: _WeakReference<_ElementWatch>, link: _RowListening)]] = [:]

  init(
    core: _CoreBase,
    read: @escaping @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>, logs: Bool),
    startLogging: @escaping @MainActor () -> Bool
  ) {
    self.read = read
    self.startLogging = startLogging
    super.init(core: core)
  }

  /// The collection's stamp from which the listened rows hear of its changes: the log is
  /// turned on first, if it can be (which gives the collection a new stamp).
  private func loggingStamp() -> UInt64 {
    let now = read()
    guard !now.logs, startLogging() else { return now.stamp }
    return read().stamp
  }

  /// The link of a new row store's watch, for the row with `id`.
  func link(_ watch: _ElementWatch, id: ID) -> _RowListening {
    _RowListening { [weak self, weak watch] link in
      guard let self, let watch else { return }
      self.listen(watch, link: link, id: id)
    }
  }

  private func listen(_ watch: _ElementWatch, link: _RowListening, id: ID) {
    // Changes from now on are the ones the listeners hear of.
    if listened.isEmpty { seenStamp = loggingStamp() }
    link.isKnown = true
    listened[id, default: []].append((_WeakReference(watch), link))
  }

  override func batchDidEnd() {
    guard !listened.isEmpty else { return }
    let now = read()
    // A collection that does not log its elements' changes (a new value assigned since the
    // last look, or one the group cannot write) may have changed any row.
    guard now.stamp != seenStamp || !now.logs else { return }
    let stamp = now.logs ? now.stamp : loggingStamp()
    defer { seenStamp = stamp }
    // Told after the look, from a list: a row's observer may send, and so end a batch, while
    // it hears of the change.
    var due: [(id: ID, watch: _ElementWatch)] = []
    func collect(_ id: ID) {
      guard let entries = listened[id] else { return }
      for entry in entries {
        if let watch = entry.watch.object, !due.contains(where: { $0.watch === watch }) {
          due.append((id, watch))
        }
      }
    }
    if now.logs, let start = now.log.start(since: seenStamp) {
      for index in start..<now.log.entries.endIndex {
        switch now.log.entries[index].change {
        case let .added(id), let .removed(id), let .modified(id): collect(id)
        case .reordered: break
        }
      }
    } else {
      // A change the log cannot describe: every row may have changed.
      for id in listened.keys { collect(id) }
    }
    for (_, watch) in due { watch.rowDidChange() }
    // The rows told drop what no longer listens: an observer reads again to hear the next
    // change, and is listed again then.
    for (id, _) in due {
      guard let entries = listened[id] else { continue }
      var kept: [(watch: _WeakReference<_ElementWatch>, link: _RowListening)] = []
      for entry in entries {
        if entry.watch.object?.isListenedTo == true {
          kept.append(entry)
        } else {
          entry.link.isKnown = false
        }
      }
      listened[id] = kept.isEmpty ? nil : kept
    }
  }
}
