import Synchronization

/// A value behind a lock, for a test to collect what effects and clients do from any task.
///
/// ```swift
/// let savedNames = LockIsolated<[String]>([])
/// let store = TestStore(initialState: Profile.State()) { Profile() } withDependencies: {
///   $0.profileClient.save = { name in savedNames.withValue { $0.append(name) } }
/// }
/// await store.send(.saveTapped)
/// #expect(savedNames.value == ["Ada"])
/// ```
@dynamicMemberLookup
public final class LockIsolated<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  /// Creates a lock-isolated `value`.
  public init(_ value: Value) { self.mutex = Mutex(value) }

  /// The current value.
  public var value: Value { mutex.withLock { $0 } }

  /// A property of the current value: `counts.total` for `counts.value.total`.
  public subscript<Subject: Sendable>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    mutex.withLock { $0[keyPath: keyPath] }
  }

  /// Reads and changes the value under the lock, in one step.
  ///
  /// ```swift
  /// let count = LockIsolated(0)
  /// count.withValue { $0 += 1 }
  /// ```
  @discardableResult
  public func withValue<T: Sendable>(_ operation: (inout Value) throws -> T) rethrows -> T {
    try mutex.withLock { value in
      var copy = value
      defer { value = copy }
      return try operation(&copy)
    }
  }

  /// Replaces the value.
  public func setValue(_ newValue: Value) { mutex.withLock { $0 = newValue } }
}

/// A value isolated to an actor, for a test to collect what effects do, awaiting each access.
///
/// ```swift
/// let events = ActorIsolated<[String]>([])
/// let store = TestStore(initialState: Player.State()) { Player() } withDependencies: {
///   $0.analytics.track = { event in await events.withValue { $0.append(event) } }
/// }
/// await store.send(.playTapped)
/// #expect(await events.value == ["play"])
/// ```
@dynamicMemberLookup
public final actor ActorIsolated<Value: Sendable> {
  /// The current value.
  public private(set) var value: Value

  /// Creates an actor-isolated `value`.
  public init(_ value: Value) { self.value = value }

  /// A property of the current value: `await counts.total` for `await counts.value.total`.
  public subscript<Subject: Sendable>(
    dynamicMember keyPath: KeyPath<Value, Subject> & Sendable
  ) -> Subject {
    value[keyPath: keyPath]
  }

  /// Reads and changes the value on the actor, in one step.
  @discardableResult
  public func withValue<T: Sendable>(_ operation: @Sendable (inout Value) throws -> T) rethrows
    -> T
  {
    try operation(&value)
  }

  /// Replaces the value.
  public func setValue(_ newValue: Value) { value = newValue }
}
