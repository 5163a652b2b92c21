/// The values features reach the outside world through: one per registered key, bound to the
/// current task.
///
/// Register a dependency by extending this type with a property over a ``DependencyKey`` (see
/// there for the whole idiom); read it with ``Dependency``; override it for a piece of work
/// with ``withDependencies(_:operation:)-(_,()->R)``, for a store with its initializer, for a part
/// of a reducer tree with ``Reducer/dependency(_:_:)``.
///
/// Values are task-local: concurrent tasks each see their own overrides, and a store pins the
/// values current when it is created so that every reducer and effect it runs sees them.
public struct DependencyValues: Sendable {
  @usableFromInline @TaskLocal package static var _taskLocal = DependencyValues()

  /// The values current here: those of the send loop running on this thread, if any, else
  /// the task's.
  @inlinable
  static var _current: DependencyValues {
    _BatchDependencies.current?.values ?? _taskLocal
  }

  /// The current store's stack element id sequence: `_current._stackElementIDs`, read without
  /// copying the values (a push reads it twice; the copy retained and released their storage).
  static var _currentStackElementIDs: _StackElementIDGenerator? {
    if let box = _BatchDependencies.current { return box.values._stackElementIDs }
    return _taskLocal._stackElementIDs
  }

  /// Runs `operation` with `values` current.
  @usableFromInline
  static func _withValue<R>(_ values: DependencyValues, operation: () throws -> R) rethrows -> R {
    if _BatchDependencies.current != nil {
      return try _BatchDependencies.with(_DependencyBox(values), operation)
    }
    return try $_taskLocal.withValue(values, operation: operation)
  }

  /// Runs the asynchronous `operation` with `values` current.
  @usableFromInline
  static func _withValue<R>(
    _ values: DependencyValues,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await $_taskLocal.withValue(values, operation: operation)
  }

  /// The values current for this task.
  public static var current: DependencyValues { _current }

  /// Whether the values are being set (a `withDependencies` closure, a store's, a test
  /// store's, a reducer's `.dependency`): setting one endpoint of a client
  /// (`$0.numberFact.fetch = { ... }`) reads the client's default first, and that read is no
  /// use of the dependency, so a default without a test value does not report it.
  @TaskLocal static var _isSetting = false

  /// Runs `update` on `values` as a setting of them (see `_isSetting`).
  @usableFromInline
  package static func _set(
    _ values: inout DependencyValues, _ update: (inout DependencyValues) throws -> Void
  ) rethrows {
    try $_isSetting.withValue(true) { try update(&values) }
  }

  private var storage: [ObjectIdentifier: _AnyBox] = [:]
  private var cache: _DependencyCache
  /// The current store's stack element id sequence, or `nil` outside a store. Stored, not
  /// keyed: every push reads it.
  package var _stackElementIDs: _StackElementIDGenerator?

  /// The context deciding each dependency's default: live, preview or test.
  public var context: DependencyContext

  /// Values with no overrides, in the context this process runs in.
  public init() {
    self.context = .current
    self.cache = _DependencyCache()
  }

  /// The value for `key`: an override if one was set, else the key's default for ``context``
  /// (computed once; live values once per process, test and preview values once per store).
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let box = storage[ObjectIdentifier(key)] {
        return unsafeDowncast(box, to: _Box<Key.Value>.self).value
      }
      return cache.value(for: Key.self, context: context)
    }
    set {
      storage[ObjectIdentifier(key)] = _Box(newValue)
    }
  }

  /// These values with a cache of their own for test and preview defaults: what a new store
  /// pins, so default values built in one test never leak into another.
  @usableFromInline
  package func withFreshCache() -> DependencyValues {
    var values = self
    values.cache = _DependencyCache()
    return values
  }
}

/// A type-erased value; `_Box<Value>` is the only subclass, chosen by the key's type.
class _AnyBox: @unchecked Sendable {}
// `@unchecked`: every instance is a `_Box` of a `Sendable` value, immutable after creation.

final class _Box<Value: Sendable>: _AnyBox, @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Default values computed so far. Live values live in one process-wide cache (computed once,
/// ever); test and preview values in the cache of the values a store pinned.
final class _DependencyCache: Sendable {
  private struct Key: Hashable {
    let type: ObjectIdentifier
    let context: DependencyContext
  }

  private static let live = Guarded<[ObjectIdentifier: _AnyBox]>([:])
  private let values = Guarded<[Key: _AnyBox]>([:])

  func value<K: TestDependencyKey>(for key: K.Type, context: DependencyContext) -> K.Value {
    let id = ObjectIdentifier(key)
    switch context {
    case .live:
      if let box = Self.live.withLock({ $0[id] }) {
        return unsafeDowncast(box, to: _Box<K.Value>.self).value
      }
      // Computed outside the lock: a live value may read other dependencies.
      let value = Self.liveValue(of: key)
      return Self.live.withLock { cache in
        if let box = cache[id] { return unsafeDowncast(box, to: _Box<K.Value>.self).value }
        cache[id] = _Box(value)
        return value
      }
    case .preview, .test:
      let cacheKey = Key(type: id, context: context)
      if let box = values.withLock({ $0[cacheKey] }) {
        return unsafeDowncast(box, to: _Box<K.Value>.self).value
      }
      let value = context == .test ? K.testValue : K.previewValue
      // A default read to set one of its endpoints is not kept: a later read that no override
      // answers computes (and reports) it again.
      if DependencyValues._isSetting { return value }
      return values.withLock { cache in
        if let box = cache[cacheKey] {
          return unsafeDowncast(box, to: _Box<K.Value>.self).value
        }
        cache[cacheKey] = _Box(value)
        return value
      }
    }
  }

  private static func liveValue<K: TestDependencyKey>(of key: K.Type) -> K.Value {
    if let live = key as? any DependencyKey.Type {
      return open(live) as! K.Value
    }
    reportRuntimeWarning(
      """
      The dependency '\(K.self)' has no live value: its key conforms to TestDependencyKey only.

      Make the key conform to DependencyKey in the module that implements it, and link that \
      module into the app. The preview value is used for now.
      """,
      fileID: #fileID, line: #line)
    return K.previewValue
  }

  private static func open<L: DependencyKey>(_ key: L.Type) -> any Sendable { L.liveValue }
}
