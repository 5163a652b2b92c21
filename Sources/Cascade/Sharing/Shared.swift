/// State that several features hold as one value: a reference with a value's API.
///
/// A parent and the child it pushes can both hold the same `Shared`; a change made through
/// either (or through an effect, or another store) is seen by both, and by every store and
/// observer that reads it. Give a `Shared` a key to persist it (``FileStorageKey``,
/// ``AppStorageKey``) or to find it by name (``InMemoryKey``).
///
/// ```swift
/// struct Main: Reducer {
///   struct State: Equatable {
///     @Shared(.fileStorage(.rankingFile)) var ranking = Ranking()
///     var path = StackState<Path.State>()
///   }
///   // Pushing a screen hands it the same reference:
///   //   state.path.append(.rank(Rank.State(ranking: state.$ranking)))
/// }
///
/// struct Rank: Reducer {
///   struct State: Equatable {
///     @Shared var ranking: Ranking
///   }
///   // ...
///   //   state.$ranking.withLock { $0.touches[school, default: 0] += 1 }
/// }
/// ```
///
/// Reading is cheap (a lock and an observation registration). Writing goes through
/// ``withLock(_:)``, so a read-modify-write from two tasks never loses an update. In a
/// `TestStore`, shared changes are asserted like any other state, in the `send` or `receive`
/// that made them.
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value: Sendable>: Sendable {
  let box: _SharedBox<Value>

  init(box: _SharedBox<Value>) { self.box = box }

  /// A new reference to `value`, held by no key: share it by passing it (its `$` projection)
  /// to the features that need it.
  ///
  /// ```swift
  /// let ranking = Shared(value: Ranking())
  /// let state = Rank.State(ranking: ranking)
  /// ```
  public init(value: Value) {
    self.box = _SharedRoot(value: value, keyDescription: "a Shared(value:)")
  }

  /// The reference `key` names in the current ``SharedStorage``, made from the stored value,
  /// or from `wrappedValue` when nothing is stored or the stored value cannot be read (see
  /// ``loadError``). `wrappedValue` is evaluated when the reference is made (never when it
  /// exists already), and a persisted value goes back to it when its stored value is removed
  /// outside (its file deleted, its user default removed).
  ///
  /// ```swift
  /// @Shared(.appStorage("soundOn")) var soundOn = true
  /// ```
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.box = SharedStorage.current.root(
      for: key, fallback: wrappedValue, fileID: fileID, line: line)
  }

  /// The reference `key` names, `nil` until a value is stored.
  ///
  /// ```swift
  /// @Shared(.appStorage("lastSchool")) var lastSchool: String?
  /// ```
  public init<Wrapped>(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where Value == Wrapped? {
    self.init(wrappedValue: nil, key, fileID: fileID, line: line)
  }

  /// Another holder of the same reference, for memberwise initializers:
  /// `Rank.State(ranking: state.$ranking)`.
  public init(projectedValue: Shared<Value>) { self = projectedValue }

  /// The current value. Change it with ``withLock(_:)``.
  ///
  /// Assigning it directly (`count = 43`), as code written before `withLock` does, still
  /// works, with a deprecation warning that names the way forward: it sets the value under
  /// the lock, but a read followed by a write (`count += 1`) is two steps another task can
  /// come between, and loses an update that `withLock` would keep.
  ///
  /// ```swift
  /// @Shared(.appStorage("count")) var count = 42
  /// $count.withLock { $0 = 43 }     // not `count = 43`
  /// $count.withLock { $0 += 1 }     // one step under the lock
  /// ```
  public var wrappedValue: Value {
    get { box.read() }
    @available(
      *, deprecated,
      message:
        "Change a shared value under its lock: '$count.withLock { $0 = newValue }' for '@Shared var count'."
    )
    nonmutating set { withLock { $0 = newValue } }
  }

  /// The reference itself, to pass to children or derive a field from.
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// A shared reference to one field of this value: `$settings.volume`.
  ///
  /// ```swift
  /// let volume: Shared<Double> = $settings.volume
  /// volume.withLock { $0 = 0.5 }  // settings.volume is now 0.5
  /// ```
  public subscript<Member: Sendable>(
    dynamicMember keyPath: WritableKeyPath<Value, Member>
  ) -> Shared<Member> {
    Shared<Member>(box: _SharedProjection(parent: box, keyPath: keyPath))
  }

  /// The shared value inside a shared optional, or `nil` when the optional is `nil` now: with
  /// ``subscript(id:)``, a child's own reference to one element of a shared collection.
  ///
  /// ```swift
  /// @Shared(.syncUps) var syncUps          // IdentifiedArrayOf<SyncUp>
  /// guard let syncUp = Shared($syncUps[id: id]) else { return .none }   // Shared<SyncUp>
  /// state.path.append(.detail(SyncUpDetail.State(syncUp: syncUp)))
  /// ```
  ///
  /// Reads and writes go through to the element. If the element is later removed, the
  /// reference keeps reading the element as it last was, and its writes change only that
  /// copy: the collection is never given back an element it removed.
  public init?(_ base: Shared<Value?>) {
    guard let current = base.box.read() else { return nil }
    self.init(box: _SharedUnwrapped(parent: base.box, current: current))
  }

  /// Mutates the value under its lock: no other task reads or writes it meanwhile. Every
  /// holder and observer sees the change, and a persisted value is saved.
  ///
  /// ```swift
  /// $ranking.withLock { $0.touches[school, default: 0] += taps }
  /// ```
  @discardableResult
  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try box.mutate(body)
  }

  /// Why the stored value could not be loaded (the default is used meanwhile), or `nil`.
  /// It clears when a later load or save succeeds.
  public var loadError: (any Error)? {
    box.root._loadError
  }

  /// Whether two values are the same reference (not merely equal values).
  ///
  /// ```swift
  /// #expect(child.$ranking.isSameReference(as: parent.$ranking))
  /// ```
  public func isSameReference(as other: Shared<Value>) -> Bool {
    box.identity == other.box.identity
  }
}

extension Shared: Equatable where Value: Equatable {
  /// Equal values are equal. In a `TestStore` assertion, the same reference compares the
  /// value the test expects (the left side) with the live one.
  public static func == (lhs: Shared, rhs: Shared) -> Bool {
    guard lhs.box.identity == rhs.box.identity else {
      return lhs.wrappedValue == rhs.wrappedValue
    }
    guard _SharedAssertion.isComparing else { return true }
    let expected = _SharedAssertion.$mode.withValue(.expected) { lhs.box.read() }
    return expected == rhs.box.read()
  }
}

extension Shared: Hashable where Value: Hashable {
  /// Hashes the current value.
  public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}

extension Shared: Codable where Value: Codable {
  /// Encodes the current value.
  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encode(to: encoder)
  }

  /// Decodes a value into a new reference held by no key: a decoded state (a replayed
  /// recording, say) shares nothing with the program that encoded it.
  ///
  /// ```swift
  /// let state = try JSONDecoder().decode(Main.State.self, from: data)
  /// ```
  public init(from decoder: any Decoder) throws {
    self.init(value: try Value(from: decoder))
  }
}

extension Shared: CustomStringConvertible {
  /// `Shared(42)`: the current value, wrapped.
  public var description: String { "Shared(\(wrappedValue))" }
}

extension Shared: CustomReflectable {
  /// Dumps and diffs show the value.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}

/// Lets a test store find the shared references in a state.
package protocol _SharedValue {
  var _root: any _AnySharedRoot { get }
  var _wrappedAny: Any { get }
}

extension Shared: _SharedValue {
  package var _root: any _AnySharedRoot { box.root }
  package var _wrappedAny: Any { wrappedValue }
}

extension Shared {
  /// A shared reference to the element with `id` of a shared identified array: `nil` while
  /// there is no such element. Pass it to ``init(_:)`` to hold the element itself.
  ///
  /// ```swift
  /// let syncUp: Shared<SyncUp?> = $syncUps[id: id]
  /// syncUp.withLock { $0?.title = "Engineering" }   // changes the element in the array
  /// ```
  public subscript<ID, Element: Sendable>(id id: ID) -> Shared<Element?>
  where Value == IdentifiedArray<ID, Element> {
    Shared<Element?>(box: _SharedProjection(parent: box, keyPath: \.[id: id]))
  }
}
