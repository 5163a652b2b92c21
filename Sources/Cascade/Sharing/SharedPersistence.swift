import Foundation

/// A persisted root seen without its value type: what its storage flushes and watches.
protocol _AnySharedPersistence: AnyObject, Sendable {
  func flush()
  func reloadIfChanged()
}

/// Loads and saves one root's value through its key: saves throttled by the key's interval,
/// flushed on demand and at exit, a failed load kept visible, outside changes reloaded.
///
/// `@unchecked Sendable`: `root` is set once, by `attach`, before the root is published;
/// everything else mutable is behind `state` or `saveLock`.
final class _SharedPersistence<Value: Sendable>: _AnySharedPersistence, @unchecked Sendable {
  private struct State {
    var loadError: (any Error)?
    var needsPreserving = false
    var isPending = false
    var lastVersion: AnyHashable?
    /// The value given when the reference was made: what it goes back to when its stored
    /// value is removed outside.
    var defaultValue: Value?
  }

  private let key: any SharedKey<Value>
  private let storage: SharedStorage
  private let interval: Duration
  /// Whether saves wait for a background task (a live storage) or happen inline (the test one).
  private let throttles: Bool
  private let fileID: StaticString
  private let line: UInt
  private weak var root: _SharedRoot<Value>?
  /// Holds the root while a save is pending, so a throttled change outlives its last holder.
  private var pendingRoot: _SharedRoot<Value>?
  private let state = Guarded(State())
  /// Serializes saves: each writes the value current when it runs, so the last save to finish
  /// always stores the latest value.
  private let saveLock = NSLock()

  init(key: any SharedKey<Value>, storage: SharedStorage, fileID: StaticString, line: UInt) {
    self.key = key
    self.storage = storage
    self.interval = storage.throttlesSaves ? key.saveInterval : .zero
    self.throttles = storage.throttlesSaves
    self.fileID = fileID
    self.line = line
  }

  /// The stored value, or `fallback` (with the error kept) when nothing is stored or it
  /// cannot be read. `fallback` is evaluated either way and kept, as the value to go back to
  /// when the stored one is removed.
  func initialValue(_ fallback: () -> Value) -> Value {
    let loaded = load(version: key.storedVersion(in: storage))
    let defaultValue = fallback()
    state.withLock { $0.defaultValue = defaultValue }
    return loaded ?? defaultValue
  }

  /// Loads the stored value, recording the version it came from and any error; `nil` when
  /// nothing is stored or it cannot be read.
  private func load(version: AnyHashable?) -> Value? {
    do {
      let loaded = try key.load(from: storage)
      state.withLock {
        $0.lastVersion = version
        $0.loadError = nil
        $0.needsPreserving = false
      }
      return loaded
    } catch {
      state.withLock {
        $0.lastVersion = version
        $0.loadError = SharedLoadError(key: "\(key)", underlying: error)
        $0.needsPreserving = true
      }
      return nil
    }
  }

  func attach(to root: _SharedRoot<Value>) { self.root = root }

  var loadError: (any Error)? { state.withLock { $0.loadError } }

  /// Schedules a save of the change just made. Never on the caller's thread in a live
  /// storage: a key with no save interval is saved as soon as a background task runs, changes
  /// made before it runs are saved together, and a flush (or the exit) saves what is waiting.
  /// Only a storage that does not throttle (the test storage) saves inline, so tests see each
  /// change stored when the write returns.
  func valueDidChange() {
    guard throttles else {
      save()
      return
    }
    let startTimer = state.withLock { state -> Bool in
      defer { state.isPending = true }
      return !state.isPending
    }
    guard startTimer else { return }
    saveLock.lock()
    pendingRoot = root
    saveLock.unlock()
    storage.registerPending(self)
    let interval = interval
    Task.detached { [weak self] in
      if interval > .zero { try? await Task.sleep(for: interval) }
      self?.flush()
    }
  }

  /// Saves a change waiting for its save. Serialized with every other save, so when it returns
  /// the latest change is stored, even one a background save was writing meanwhile.
  func flush() {
    saveLock.lock()
    defer { saveLock.unlock() }
    let wasPending = state.withLock { state -> Bool in
      defer { state.isPending = false }
      return state.isPending
    }
    guard wasPending else { return }
    saveHoldingLock()
    // A change made during the save started a new wait, which keeps the root for itself.
    if !state.withLock({ $0.isPending }) { pendingRoot = nil }
  }

  private func save() {
    saveLock.lock()
    defer { saveLock.unlock() }
    saveHoldingLock()
  }

  /// Writes the live value. The caller holds `saveLock`.
  private func saveHoldingLock() {
    guard let root = pendingRoot ?? root else { return }
    let value = root.liveValue()
    do {
      if state.withLock({ $0.needsPreserving }) {
        try key.preserveUnreadable(in: storage)
        state.withLock { $0.needsPreserving = false }
      }
      try key.save(value, to: storage)
      let version = key.storedVersion(in: storage)
      // What is stored now is this value: an earlier failed load no longer describes it.
      state.withLock {
        $0.lastVersion = version
        $0.loadError = nil
      }
    } catch {
      reportRuntimeWarning(
        """
        A shared value could not be saved to \(key): \(error)

        The value is kept in memory and saved again on its next change. Check that the \
        location is writable.
        """,
        fileID: fileID, line: line)
    }
  }

  func reloadIfChanged() {
    guard let root, let (value, generation) = reloadedValue(of: root) else { return }
    // Outside the save lock: observers hearing of the change may write the value back.
    root.replaceFromStorage(value, ifUnchangedSince: generation)
  }

  /// The value stored now, if it changed since this process last loaded or saved it and no
  /// local change is waiting for its save, with the root's generation it was decided against.
  /// A stored value removed outside gives back the default; one that cannot be read changes
  /// nothing (the error shows in `loadError`). A local change waiting to be saved wins over the
  /// outside one: it is saved over it, as the last write.
  private func reloadedValue(of root: _SharedRoot<Value>) -> (Value, UInt64)? {
    saveLock.lock()
    defer { saveLock.unlock() }
    let generation = root.generation
    let version = key.storedVersion(in: storage)
    let (changed, pending) = state.withLock { ($0.lastVersion != version, $0.isPending) }
    guard changed, !pending else { return nil }
    if let loaded = load(version: version) { return (loaded, generation) }
    let (failed, defaultValue) = state.withLock { ($0.loadError != nil, $0.defaultValue) }
    guard !failed, let defaultValue else { return nil }
    return (defaultValue, generation)
  }
}
