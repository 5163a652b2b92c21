import Foundation
import Observation

/// The reference behind a ``Shared`` value: either a root holding the value, or a projection
/// of a root's field. Abstract; `_SharedRoot` and `_SharedProjection` are the subclasses.
///
/// `@unchecked Sendable`: subclasses keep every mutable field behind a lock.
package class _SharedBox<Value: Sendable>: @unchecked Sendable {
  /// The value, read under the lock and registered with observation.
  func read() -> Value { fatalError("_SharedBox is abstract") }
  /// Mutates the value under the lock, then notifies observers and schedules a save.
  func mutate<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    fatalError("_SharedBox is abstract")
  }
  /// The root this box reads through.
  var root: any _AnySharedRoot { fatalError("_SharedBox is abstract") }
  /// What makes two boxes the same reference: the root and the path from it.
  var identity: _SharedIdentity { fatalError("_SharedBox is abstract") }
}

/// Two `Shared` values are the same reference when their root and field path are the same.
/// `@unchecked Sendable`: key paths are immutable values; only `AnyKeyPath` lacks the conformance.
package struct _SharedIdentity: Hashable, @unchecked Sendable {
  let root: ObjectIdentifier
  let path: [AnyKeyPath]
}

/// A root box seen without its value type: what the test store and the storage handle.
///
/// A test store tracks each root with a *baseline*, the value the test last asserted. While a
/// root has one, it also remembers the value after the last change made inside a store's send
/// loop: a step is checked against that, so a change an effect makes on another thread while
/// the step is checked is left for a later step (the `receive` of the action the effect sends
/// next, usually) instead of landing on whichever step happens to see it.
package protocol _AnySharedRoot: AnyObject, Sendable {
  /// Takes the current value as the one the test last asserted.
  func _recordBaseline()
  /// Until `_endStep`, reads and writes made in `.expected` mode go to a copy of the baseline
  /// (or of the value the step made): the expected side of a test assertion.
  func _beginExpectation(fromBaseline: Bool, toSend: Bool)
  /// Ends the expectation; the value the step made becomes the baseline.
  func _endStep(toSend: Bool)
  /// A dump diff of the baseline against the current value, if they differ.
  func _baselineDiff() -> String?
  /// The live value, for a test store to keep with an action an effect sent.
  func _liveSnapshot() -> any Sendable
  /// Until `_endStep`, a `receive` sees `snapshot` (the value when the received action was
  /// sent) as the value the step made, unless the reducer changes the value itself.
  func _attributeReceived(_ snapshot: (any Sendable)?)
  /// How many changes were committed so far: a recorder re-dumps a shared value only when it
  /// moved.
  var _generation: UInt64 { get }
  /// A description of the key, for messages.
  var _keyDescription: String { get }
  /// Why the stored value could not be loaded, for a persisted key.
  var _loadError: (any Error)? { get }
}

/// Task-local switches a `TestStore` sets while it builds and compares the expected state.
package enum _SharedAssertion {
  package enum Mode: Sendable {
    /// The live value.
    case live
    /// The test's expected copy, where there is one.
    case expected
    /// The value the current step made: the value after the last change made in a send loop,
    /// else the baseline for a `send` (an effect's change is not its doing) or the live value
    /// for a `receive` or an assertion.
    case attributed(toSend: Bool)
  }
  @TaskLocal package static var mode = Mode.live
  /// `==` compares the left side in `.expected` mode with the right side in the current mode.
  @TaskLocal package static var isComparing = false
}

/// How many shared roots were ever created: while none was, a test store skips looking for
/// them in its state.
package let _sharedRootCount = Guarded(0)

/// The root of a shared reference: the value, its observation registrar, and its persistence.
package final class _SharedRoot<Value: Sendable>: _SharedBox<Value>, _AnySharedRoot,
  _ListenableRoot,
  Observable,
  @unchecked Sendable
{
  private struct Locked {
    var value: Value
    var expectation: Value?
    var baseline: Value?
    var batchValue: Value?
    var receivedValue: Value?
    var listeners: [ObjectIdentifier: WeakListener] = [:]
    /// Counts committed changes: a reload from storage applies only over the value it was
    /// decided against, never over a change made meanwhile.
    var generation: UInt64 = 0
  }

  private struct WeakListener {
    weak var listener: (any _SharedListener)?
  }

  /// Guards `locked`; held only to copy a value in or out, never while user code runs.
  private let lock = NSLock()
  /// Guarded by `lock`.
  private var locked: Locked
  /// Serializes writers: held while a `withLock` body runs on a copy of the value, so two
  /// read-modify-writes never interleave. Recursive only to recognize (and refuse) a `withLock`
  /// of this value nested in another on the same thread, which would lose the inner write.
  private let writer = NSRecursiveLock()
  /// How many `withLock` bodies of this value the thread holding `writer` is in. Guarded by
  /// `writer`.
  private var writerDepth = 0
  private let registrar = ObservationRegistrar()
  /// Made once: a key path written in generic code is instantiated (allocated) at every use.
  private let observed: KeyPath<_SharedRoot, Void>
  /// Saves the value for a persisted key; `nil` for in-memory and unkeyed values.
  let persistence: _SharedPersistence<Value>?
  package let _keyDescription: String
  package var _loadError: (any Error)? { persistence?.loadError }

  init(value: Value, persistence: _SharedPersistence<Value>? = nil, keyDescription: String) {
    self.locked = Locked(value: value)
    self.persistence = persistence
    self._keyDescription = keyDescription
    self.observed = \_SharedRoot._observed
    super.init()
    _sharedRootCount.withLock { $0 += 1 }
    persistence?.attach(to: self)
  }

  /// The key path observers register on.
  var _observed: Void { () }

  override var root: any _AnySharedRoot { self }
  override var identity: _SharedIdentity { _SharedIdentity(root: ObjectIdentifier(self), path: []) }

  override func read() -> Value {
    registrar.access(self, keyPath: observed)
    _SharedReadRecorder.recordRead(self)
    return readQuietly()
  }

  /// The value without registering an observation.
  func readQuietly() -> Value {
    lock.lock()
    defer { lock.unlock() }
    // Only a root a test store tracks has a baseline, and reads the assertion mode.
    guard locked.baseline != nil else { return locked.value }
    switch _SharedAssertion.mode {
    case .live: return locked.value
    case .expected: return locked.expectation ?? locked.value
    case let .attributed(toSend): return attributedValue(toSend: toSend)
    }
  }

  /// Under the lock: the value the current test step made.
  private func attributedValue(toSend: Bool) -> Value {
    if let batchValue = locked.batchValue { return batchValue }
    if toSend, let baseline = locked.baseline { return baseline }
    if let receivedValue = locked.receivedValue { return receivedValue }
    return locked.value
  }

  /// Runs `body` on a copy of the value and commits the copy when it returns: a read of this
  /// value inside `body` (directly or through a field projection) sees the value as it was
  /// before, other threads keep reading the last committed value meanwhile, and a `body` that
  /// throws changes nothing.
  override func mutate<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    if locked.expectation != nil, case .expected = _SharedAssertion.mode {
      var expectation = locked.expectation!
      lock.unlock()
      let result = try body(&expectation)
      lock.lock()
      locked.expectation = expectation
      lock.unlock()
      return result
    }
    lock.unlock()
    let result = try change(body)
    persistence?.valueDidChange()
    return result
  }

  /// Changes the live value: `body` runs on a copy under the writer lock and the copy is
  /// committed under the value lock. Observers hear `willSet` before either lock is taken, and
  /// `didSet` and listeners after both are released (they may read or write the value). Always
  /// inlined: as a call of its own, it would make the write path's generic closure cost more
  /// per write.
  @inline(__always)
  private func change<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    registrar.willSet(self, keyPath: observed)
    writer.lock()
    guard writerDepth == 0 else {
      writer.unlock()
      preconditionFailure(
        """
        Shared.withLock was called inside another withLock of the same shared value \
        (\(_keyDescription)), on the same thread: the inner change would be lost when the outer \
        one is committed. Change the value through the outer closure's argument instead.
        """)
    }
    writerDepth += 1
    lock.lock()
    var working = locked.value
    lock.unlock()
    let result: R
    do {
      defer { writerDepth -= 1 }
      result = try body(&working)
    } catch {
      writer.unlock()
      throw error
    }
    lock.lock()
    locked.value = working
    locked.generation &+= 1
    if locked.baseline != nil, _BatchDependencies.current != nil {
      locked.batchValue = working
    }
    lock.unlock()
    writer.unlock()
    registrar.didSet(self, keyPath: observed)
    notifyListeners()
    return result
  }

  private func notifyListeners() {
    lock.lock()
    guard !locked.listeners.isEmpty else {
      lock.unlock()
      return
    }
    locked.listeners = locked.listeners.filter { $0.value.listener != nil }
    let listeners = locked.listeners.values.compactMap(\.listener)
    lock.unlock()
    for listener in listeners { listener.sharedValueDidChange() }
  }

  /// How many changes were committed so far.
  var generation: UInt64 {
    lock.lock()
    defer { lock.unlock() }
    return locked.generation
  }

  /// Replaces the value with one loaded from storage, without saving it back, unless a change
  /// was committed since `generation`: that local change wins, and its save will store it.
  /// Waits for a `withLock` body running meanwhile, whose commit then wins the same way.
  func replaceFromStorage(_ value: Value, ifUnchangedSince generation: UInt64) {
    registrar.willSet(self, keyPath: observed)
    writer.lock()
    lock.lock()
    let unchanged = locked.generation == generation
    if unchanged {
      locked.value = value
      locked.generation &+= 1
    }
    lock.unlock()
    writer.unlock()
    guard unchanged else { return }
    registrar.didSet(self, keyPath: observed)
    notifyListeners()
  }

  /// The live value, whatever a test is asserting: what a save writes.
  func liveValue() -> Value {
    lock.lock()
    defer { lock.unlock() }
    return locked.value
  }

  func addListener(_ listener: any _SharedListener) {
    lock.lock()
    locked.listeners[ObjectIdentifier(listener)] = WeakListener(listener: listener)
    lock.unlock()
  }

  package func _recordBaseline() {
    lock.lock()
    locked.baseline = locked.value
    locked.batchValue = nil
    locked.receivedValue = nil
    lock.unlock()
  }

  package func _liveSnapshot() -> any Sendable { liveValue() }

  package var _generation: UInt64 { generation }

  package func _attributeReceived(_ snapshot: (any Sendable)?) {
    lock.lock()
    locked.receivedValue = snapshot as? Value
    lock.unlock()
  }

  package func _beginExpectation(fromBaseline: Bool, toSend: Bool) {
    lock.lock()
    locked.expectation =
      fromBaseline ? (locked.baseline ?? locked.value) : attributedValue(toSend: toSend)
    lock.unlock()
  }

  package func _endStep(toSend: Bool) {
    lock.lock()
    locked.baseline = attributedValue(toSend: toSend)
    locked.batchValue = nil
    locked.receivedValue = nil
    locked.expectation = nil
    lock.unlock()
  }

  package func _baselineDiff() -> String? {
    lock.lock()
    let (baseline, value) = (locked.baseline, locked.value)
    lock.unlock()
    guard let baseline else { return nil }
    return stateDiff(baseline, value)
  }
}

/// A field of another shared value, read and written through it.
final class _SharedProjection<Root: Sendable, Value: Sendable>: _SharedBox<Value>,
  @unchecked Sendable
{
  // `@unchecked Sendable`: both fields are immutable; the key path is only ever applied, and
  // the parent guards the value.
  let parent: _SharedBox<Root>
  let keyPath: WritableKeyPath<Root, Value>

  init(parent: _SharedBox<Root>, keyPath: WritableKeyPath<Root, Value>) {
    self.parent = parent
    self.keyPath = keyPath
  }

  override var root: any _AnySharedRoot { parent.root }
  override var identity: _SharedIdentity {
    let parent = parent.identity
    return _SharedIdentity(root: parent.root, path: parent.path + [keyPath])
  }

  override func read() -> Value { parent.read()[keyPath: keyPath] }

  override func mutate<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try parent.mutate { try body(&$0[keyPath: keyPath]) }
  }
}

/// A shared optional seen as its wrapped value: `Shared(sharedOptional)`. Keeps the last value
/// it read, so that a holder of an element that was removed (a screen showing a deleted row
/// while it is dismissed) still reads something: the element as it last was.
final class _SharedUnwrapped<Value: Sendable>: _SharedBox<Value>, @unchecked Sendable {
  // `@unchecked Sendable`: `parent` is immutable and guards its value; `last` is behind a lock.
  let parent: _SharedBox<Value?>
  private let last: Guarded<Value>

  init(parent: _SharedBox<Value?>, current: Value) {
    self.parent = parent
    self.last = Guarded(current)
  }

  override var root: any _AnySharedRoot { parent.root }
  override var identity: _SharedIdentity {
    let parent = parent.identity
    return _SharedIdentity(root: parent.root, path: parent.path + [\Value?.!])
  }

  override func read() -> Value {
    guard let value = parent.read() else { return last.withLock { $0 } }
    last.withLock { $0 = value }
    return value
  }

  /// Changes the wrapped value; once the optional is `nil`, the change is made to the last value
  /// only (the element is gone: there is nothing to write it into).
  override func mutate<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try parent.mutate { optional in
      guard var value = optional else {
        var stale = last.withLock { $0 }
        let result = try body(&stale)
        last.withLock { $0 = stale }
        return result
      }
      let result = try body(&value)
      optional = value
      last.withLock { $0 = value }
      return result
    }
  }
}
