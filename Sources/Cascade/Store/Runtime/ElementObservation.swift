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
@usableFromInline
@MainActor
final class _ElementWatch: Observable {
  let registrar = ObservationRegistrar()
  /// `\._state`, made once: a key path literal is looked up in the runtime each time it is
  /// evaluated.
  let stateKeyPath: KeyPath<_ElementWatch, Void> = \._state
  let group: _ElementGroupBase
  let id: AnyHashable
  /// Whether an observer read the row since its observers last heard of a change.
  var isObserved = false
  /// The async observers (`values(of:)`, `forward`): told of every change to the row.
  var subscribers: [_WeakSubscriber] = []
  private var retained: [AnyObject] = []
  var _state: Void { () }

  init(group: _ElementGroupBase, id: AnyHashable) {
    self.group = group
    self.id = id
  }

  /// Registers the current observer (if any) for the row's next change.
  @usableFromInline
  func access() {
    registrar.access(self, keyPath: stateKeyPath)
    if !isObserved {
      isObserved = true
      group.watch(self)
    }
  }

  func subscribe(_ subscriber: any _Subscriber) {
    subscribers.append(_WeakSubscriber(subscriber: subscriber))
    group.watch(self)
  }

  func retain<S: _Subscriber>(_ subscriber: S) where S: _Finishable {
    retained.removeAll { ($0 as? any _Finishable)?.isFinished ?? true }
    retained.append(subscriber)
    subscribe(subscriber)
  }

  /// Whether anyone still listens: an observer that read since the last change, or a
  /// subscriber.
  var isWatched: Bool {
    subscribers.removeAll { $0.subscriber == nil }
    return isObserved || !subscribers.isEmpty
  }

  /// Tells the row's observers it changed.
  func rowDidChange() {
    if isObserved {
      isObserved = false
      registrar.willSet(self, keyPath: stateKeyPath)
      registrar.didSet(self, keyPath: stateKeyPath)
    }
    for subscriber in subscribers { subscriber.subscriber?.stateDidChange() }
  }
}

/// The row stores of one collection (one parent store and key path) that are being watched,
/// by row id, and the collection's stamp when they last heard of its changes.
@MainActor
class _ElementGroupBase {
  unowned let core: _CoreBase
  var watched: [AnyHashable: [_WeakReference<_ElementWatch>]] = [:]
  var isRegistered = false

  init(core: _CoreBase) { self.core = core }

  func watch(_ watch: _ElementWatch) {
    var entries = watched[watch.id, default: []]
    guard !entries.contains(where: { $0.object === watch }) else { return }
    if watched.isEmpty { startWatching() }
    entries.append(_WeakReference(watch))
    watched[watch.id] = entries
    if !isRegistered {
      isRegistered = true
      core.register(self)
    }
  }

  /// Takes the collection's stamp: changes from now on are the ones the watchers hear of.
  func startWatching() {}

  /// At the end of a batch: tells the watchers of every row that changed since the last look.
  /// Returns whether anyone is still watched.
  func batchDidEnd() -> Bool { false }

  /// Tells the watchers of `id` (every row, when `nil`) and forgets the observers among them
  /// (they read again to hear the next change); subscribers stay.
  final func notify(_ ids: Set<AnyHashable>?) {
    let ids = ids ?? Set(watched.keys)
    var due: [_ElementWatch] = []
    for id in ids {
      guard let entries = watched[id] else { continue }
      due.append(contentsOf: entries.compactMap(\.object))
    }
    for watch in due { watch.rowDidChange() }
    // The rows told drop what no longer listens (read again, it registers again); the others
    // are not visited, so a change costs the rows it changed.
    for id in ids {
      guard let entries = watched[id] else { continue }
      let kept = entries.filter { $0.object?.isWatched == true }
      if kept.isEmpty { watched[id] = nil } else if kept.count != entries.count {
        watched[id] = kept
      }
    }
  }
}

/// ``_ElementGroupBase`` for a collection with ids of type `ID`, read through `read`.
@MainActor
final class _ElementGroup<ID: Hashable>: _ElementGroupBase {
  /// The collection's stamp and change log now; `nil` when the collection is gone (its parent
  /// optional became `nil`).
  let read: @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>)?
  private var seenStamp: UInt64?

  init(core: _CoreBase, read: @escaping @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>)?) {
    self.read = read
    super.init(core: core)
  }

  override func startWatching() {
    seenStamp = read()?.stamp
  }

  override func batchDidEnd() -> Bool {
    guard !watched.isEmpty else { return false }
    let now = read()
    guard now?.stamp != seenStamp else { return true }
    defer { seenStamp = now?.stamp }
    guard let now, let seenStamp, let start = now.log.start(since: seenStamp) else {
      notify(nil)
      return !watched.isEmpty
    }
    var changed: Set<AnyHashable> = []
    for index in start..<now.log.entries.endIndex {
      switch now.log.entries[index].change {
      case let .added(id), let .removed(id), let .modified(id): changed.insert(AnyHashable(id))
      case .reordered: break
      }
    }
    if !changed.isEmpty { notify(changed) }
    return !watched.isEmpty
  }
}
