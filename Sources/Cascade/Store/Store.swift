import Observation

/// The runtime of a feature: it holds the state, runs the reducer for each action sent, and
/// runs the effects the reducer returns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// }
/// store.send(.incrementTapped)
/// store.state.count   // 1
/// ```
///
/// ## How sending works
/// `send` reduces the action at once, then every action its effects send synchronously
/// (`.send`), first in, first out, in one batch: a reducer never runs re-entrantly, and a chain
/// of any length does not grow the stack. Observers hear of one change per batch. `.run`
/// effects start on new tasks after the reducer returns, never inside it.
///
/// ## Child stores
/// ``scope(state:action:)->Store<ChildState,ChildAction>`` returns a store for part of the
/// state: a view on this one that holds no state of its own. Scoping the same way twice
/// returns the same store.
///
/// ## Observation
/// A store is `Observable`: SwiftUI views and `withObservationTracking` that read ``state``
/// are told when it changes. Without a UI, ``values(of:)`` streams distinct values.
///
/// When the root store is released, every effect it started is cancelled.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action>: Observable {
  @usableFromInline package let core: _CoreBase
  @usableFromInline let projection: _Projection<State>
  @usableFromInline let sendAction: @MainActor (Action, _Origin) -> _Cascade?
  /// Keeps the parent (and so the root) alive while a child store is used.
  private let parent: AnyObject?
  /// The watched rows of this store's collections, by the collection's key path.
  var elementGroups: [AnyKeyPath: _ElementGroupBase] = [:]
  @usableFromInline var children: [_ScopeID: _WeakReference<AnyObject>] = [:]
  /// The size at which `children` is next swept for released stores: twice what the last sweep
  /// kept, so that making N children sweeps O(log N) times, not once per child.
  @usableFromInline var childrenPurgeThreshold = 16
  /// How many times `children` was swept, for tests.
  var childrenSweeps = 0

  @usableFromInline
  init(
    core: _CoreBase,
    projection: _Projection<State>,
    parent: AnyObject?,
    send: @escaping @MainActor (Action, _Origin) -> _Cascade?
  ) {
    self.core = core
    self.projection = projection
    self.parent = parent
    self.sendAction = send
  }

  /// Creates a root store.
  ///
  /// ```swift
  /// let store = Store(initialState: Search.State()) {
  ///   Search()
  /// } withDependencies: {
  ///   $0.apiClient = .preview
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer; its body is built once, here.
  ///   - prepareDependencies: Overrides for the dependencies this store and its effects see.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) where R.State == State, R.Action == Action {
    // A cache of its own: default test and preview values never leak from one store (one
    // test) into another.
    var dependencies = DependencyValues._current.withFreshCache()._withNewStackElementIDs()
    if let prepareDependencies { DependencyValues._set(&dependencies, prepareDependencies) }
    let function = DependencyValues._withValue(dependencies) {
      reducer()._reduceFunction()
    }
    let core = _StoreCore(
      initialState: initialState, reducer: function, dependencies: dependencies)
    self.init(
      core: core,
      projection: _PathProjection(box: core, keyPath: \State.self),
      parent: nil,
      send: { action, origin in core.send(action, origin: origin) })
  }

  /// The current state. Reading it inside a SwiftUI view or `withObservationTracking`
  /// registers for the next change.
  @inlinable
  public var state: State {
    core.accessState()
    // Specialized with the state's type in the caller: a scoped store's state is usually at a
    // fixed address in the root's, and is read there with one load.
    if let address = projection.address {
      return address.assumingMemoryBound(to: State.self).pointee
    }
    return projection.get()
  }

  /// Reads a property of the state: `store.count` for `store.state.count`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// Sends an action: the reducer runs now, with everything it sends synchronously, and any
  /// effects start.
  ///
  /// ```swift
  /// store.send(.refreshTapped)
  /// await store.send(.refreshTapped).finish()   // and wait for the refresh to complete
  /// ```
  ///
  /// - Returns: A task for the effects this action started, transitively.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    let task = StoreTask(sendAction(action, .top))
    if projection.refreshesOnSend { projection.refresh() }
    return task
  }

  /// The number of effect tasks of this store's tree currently running.
  package var activeEffectCount: Int { core.runner.activeCount }

  /// Inlinable, so that the cast below is specialized in the caller: unspecialized, it would
  /// look up the child store type's generic metadata in the runtime's cache at every scope call.
  @inlinable
  func cachedChild<ChildState, ChildAction>(
    _ id: _ScopeID,
    make: () -> Store<ChildState, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    // A box: a weak reference read out of a dictionary value is copied (a weak-reference copy
    // and destroy per call), where a box is retained once.
    if let child = children[id]?.object as? Store<ChildState, ChildAction> { return child }
    if children.count >= childrenPurgeThreshold { purgeReleasedChildren() }
    let child = make()
    children[id] = _WeakReference<AnyObject>(child)
    return child
  }
}

extension Store {
  /// Drops the cache entries of child stores nobody holds any more.
  @usableFromInline
  func purgeReleasedChildren() {
    children = children.filter { $0.value.object != nil }
    childrenSweeps += 1
    childrenPurgeThreshold = max(16, 2 * children.count)
  }
}

/// A feature's store: `StoreOf<Counter>` is `Store<Counter.State, Counter.Action>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// How a child store was scoped: the same way twice gives the same store.
@usableFromInline
struct _ScopeID: Hashable {
  @usableFromInline let state: AnyKeyPath
  @usableFromInline let action: _EmbeddingID
  @usableFromInline let element: AnyHashable?

  @usableFromInline
  init(state: AnyKeyPath, action: _EmbeddingID, element: AnyHashable?) {
    self.state = state
    self.action = action
    self.element = element
  }
}

/// The identity of an action embedding closure: the function it runs.
///
/// Swift cannot compare closures, so the scope cache compares the code a closure runs. Two
/// different cases are two different functions, so scoping one state through two cases gives
/// two stores, each embedding into its own case. Evaluating a case constructor at one place
/// gives the same function each time, so scoping from a view body stays cached; scoping one
/// case from two places gives two stores, each cached. (What a closure captures is not
/// compared: the same closure literal capturing another value at the same place embeds like
/// the first one. Scope element stores with the element APIs, which key by id.)
@usableFromInline
struct _EmbeddingID: Hashable {
  @usableFromInline let function: UInt

  /// Inlinable: in a specialized caller, the function read is the caller's own closure, not a
  /// reabstraction thunk that all closures of one type would share.
  @inlinable
  init<ChildAction, Action>(_ embed: @escaping @Sendable (ChildAction) -> Action) {
    function = unsafeBitCast(embed, to: (UInt, UInt).self).0
  }
}

/// The effects one ``Store/send(_:)`` started, including those started by the actions those
/// effects sent in turn: cancel them, or wait for them to finish.
///
/// ```swift
/// let task = store.send(.onAppear)
/// // ...
/// task.cancel()          // stop listening
///
/// await store.send(.refresh).finish()   // wait until the refresh and its follow-ups are done
/// ```
public struct StoreTask: Hashable, Sendable {
  @usableFromInline package let cascade: _Cascade?

  @usableFromInline package init(_ cascade: _Cascade?) { self.cascade = cascade }

  /// Cancels every effect of the cascade, now and as they start.
  public func cancel() { cascade?.cancel() }

  /// Waits until every effect of the cascade has finished. Cancelling the task that waits
  /// cancels the effects.
  ///
  /// It runs on the caller's actor: on a send whose effects have all finished (or that started
  /// none) it returns without suspending.
  ///
  /// ```swift
  /// await store.send(.refresh).finish()
  /// ```
  ///
  /// - Parameter isolation: The caller's actor, where the wait runs; leave it to its default.
  public func finish(isolation: isolated (any Actor)? = #isolation) async {
    guard let cascade, cascade.isRunning else { return }
    await withTaskCancellationHandler {
      await cascade.wait()
    } onCancel: {
      cascade.cancel()
    }
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { cascade?.isCancelled ?? false }

  /// Equal when both are the effects of one `send`; tasks of sends that started no effect are
  /// all equal.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.cascade === rhs.cascade }

  /// Hashes the identity of the `send` whose effects these are.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(cascade.map(ObjectIdentifier.init))
  }
}
