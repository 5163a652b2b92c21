/// The one sequence every child operator (`ifLet`, `ifCaseLet`, `forEach`, the presentation
/// `ifLet` and the stack `forEach`) runs for every action:
///
/// 1. remember who the children are before anything runs (`before`);
/// 2. do what the action asks of a child (`command`):
///    - a child's action runs that child, its effects under the child's position, then the
///      parent runs; an action for a child that is not there is dropped with a stale-action
///      warning and the parent still runs;
///    - a removal (a dismissal, a pop) runs the parent first, so it sees the child still
///      there, then removes the child;
///    - an addition (a push) adds the child, then runs the parent;
///    - any other action runs the parent alone;
/// 3. end every effect of the children that are gone or were replaced, by any route (`ended`).
///
/// An operator is an adapter: it says how to find its children, who a child is, how to run
/// one in place, and which stale-action warning applies. A fix to this sequence is made here,
/// once for all five; the warnings are in `StaleAction.swift`, identities and positions in
/// `ChildLifetime.swift`, which elements of a collection went in `ForEachReducer.swift`.
@usableFromInline
protocol _ChildAdapter {
  associatedtype ParentState
  associatedtype ParentAction
  associatedtype ChildState
  associatedtype ChildAction
  /// Which child an action is for: `Void` for an operator of one child, an id for a collection.
  associatedtype Key
  /// What the engine keeps of the children from before the action, to tell which went.
  associatedtype Before

  /// Identity, positions and warnings of this operator's children.
  var lifetime: _ChildLifetime<ChildState> { get }

  /// What `action` asks of a child, or `nil` when it is the parent's alone.
  func command(_ action: ParentAction) -> _ChildCommand<Key, ChildAction, ChildState>?

  /// Who the children are before the action.
  func before(_ state: inout ParentState) -> Before

  /// Runs the child `key` names on `action`, in place, and returns its effect as the parent's,
  /// run under the child's position; `nil` when there is no such child.
  func runChild(
    _ state: inout ParentState, _ key: Key, _ action: ChildAction, before: Before
  ) -> Effect<ParentAction>?

  /// Whether the child `key` names is there, before the parent runs on a removal.
  func contains(_ state: inout ParentState, _ key: Key, before: Before) -> Bool

  /// Removes the child `key` names, after the parent ran.
  func remove(_ state: inout ParentState, _ key: Key, before: Before)

  /// Adds `child` as `key`; `false` when `key` is taken.
  func add(_ state: inout ParentState, _ key: Key, _ child: ChildState) -> Bool

  /// An effect ending the children that were there `before` and are gone now.
  func ended(_ state: inout ParentState, before: Before) -> Effect<ParentAction>

  /// The warning for a `command` that found no child (or, for an addition, a taken key).
  func stale(_ command: _ChildCommandKind, _ key: Key, in state: ParentState) -> _StaleAction
}

/// What an action asks of an operator's children.
@usableFromInline
enum _ChildCommand<Key, ChildAction, ChildState> {
  /// Run the child `Key` names on an action, then the parent.
  case child(Key, ChildAction)
  /// Run the parent, then remove the child `Key` names: a dismissal or a pop.
  case remove(Key)
  /// Add a child as `Key`, then run the parent: a push.
  case add(Key, ChildState)
}

/// A ``_ChildCommand`` without its payload, for the stale-action warning it may need.
@usableFromInline
enum _ChildCommandKind {
  case child, remove, add
}

extension _ChildAdapter {
  /// Runs one action through the children and the parent: the sequence this file describes.
  @inlinable
  func reduce<Parent: _CompiledReducer>(
    _ state: inout ParentState, _ action: ParentAction, parent: Parent
  ) -> Effect<ParentAction> where Parent.State == ParentState, Parent.Action == ParentAction {
    let before = before(&state)
    var effects: Effect<ParentAction>
    switch command(action) {
    case let .child(key, childAction)?:
      if let effect = runChild(&state, key, childAction, before: before) {
        effects = effect.merge(with: parent._reduce(into: &state, action: action))
      } else {
        lifetime.reportStale(stale(.child, key, in: state), action: action)
        effects = parent._reduce(into: &state, action: action)
      }
    case let .remove(key)?:
      let present = contains(&state, key, before: before)
      effects = parent._reduce(into: &state, action: action)
      remove(&state, key, before: before)
      if !present { lifetime.reportStale(stale(.remove, key, in: state), action: action) }
    case let .add(key, child)?:
      if !add(&state, key, child) {
        lifetime.reportStale(stale(.add, key, in: state), action: action)
      }
      effects = parent._reduce(into: &state, action: action)
    case nil:
      effects = parent._reduce(into: &state, action: action)
    }
    return effects.merge(with: ended(&state, before: before))
  }

  // An operator of one child is never asked to add or remove one by key.
  @inlinable
  func contains(_ state: inout ParentState, _ key: Key, before: Before) -> Bool { false }
  @inlinable
  func remove(_ state: inout ParentState, _ key: Key, before: Before) {}
  @inlinable
  func add(_ state: inout ParentState, _ key: Key, _ child: ChildState) -> Bool { false }
}

/// The effect that ends a single child that was there as `before` and is now `now` (`nil`:
/// gone): nothing when it is the same child.
@inlinable
func _endReplacedChild<Identity: Equatable, Action>(
  before: Identity?, now: @autoclosure () -> Identity?, end: (Identity) -> Effect<Action>
) -> Effect<Action> {
  guard let before, now() != before else { return .none }
  return end(before)
}

/// An adapter for `ifLet` and `ifCaseLet`: one child, found and run by the operator's
/// closures, told apart by `Identity`: a `_ChildIdentity`, or `_Presence` for a child told
/// apart by its position alone (see `_SingleChildPositions`).
@usableFromInline
struct _SingleChildAdapter<
  ParentState, ParentAction, ChildState, ChildAction, Identity: _SingleChildIdentity
>: _ChildAdapter {
  @usableFromInline let lifetime: _ChildLifetime<ChildState>
  /// The child's action inside a parent action, and a child action as the parent's.
  @usableFromInline let route: _CaseRoute<ParentAction, ChildAction>
  /// Who the child is now; `nil` when there is no child.
  @usableFromInline let identity: (inout ParentState) -> Identity?
  /// Where a child's effects run, and the effect that ends them.
  @usableFromInline let positions: _SingleChildPositions<Identity, ParentAction>
  /// Runs the child reducer on the child's state, in place; called only when there is a child.
  @usableFromInline let runChild: (inout ParentState, ChildAction) -> Effect<ChildAction>
  /// What to say when a child action comes with no child.
  @usableFromInline let stale: (ParentState) -> _StaleAction

  @inlinable
  init(
    lifetime: _ChildLifetime<ChildState>, route: _CaseRoute<ParentAction, ChildAction>,
    identity: @escaping (inout ParentState) -> Identity?,
    positions: _SingleChildPositions<Identity, ParentAction>,
    runChild: @escaping (inout ParentState, ChildAction) -> Effect<ChildAction>,
    stale: @escaping (ParentState) -> _StaleAction
  ) {
    self.lifetime = lifetime
    self.route = route
    self.identity = identity
    self.positions = positions
    self.runChild = runChild
    self.stale = stale
  }

  @inlinable
  func command(_ action: ParentAction) -> _ChildCommand<Void, ChildAction, ChildState>? {
    route.extract(action).map { .child((), $0) }
  }

  @inlinable
  func before(_ state: inout ParentState) -> Identity? { identity(&state) }

  @inlinable
  func runChild(
    _ state: inout ParentState, _: Void, _ action: ChildAction, before: Identity?
  ) -> Effect<ParentAction>? {
    guard let before else { return nil }
    let effect = runChild(&state, action)
    return effect.isNone ? .none : effect.map(route.embed)._navigation(positions.position(before))
  }

  @inlinable
  func ended(_ state: inout ParentState, before: Identity?) -> Effect<ParentAction> {
    _endReplacedChild(before: before, now: identity(&state), end: positions.end)
  }

  @inlinable
  func stale(_: _ChildCommandKind, _: Void, in state: ParentState) -> _StaleAction {
    stale(state)
  }
}

/// Where a single child's effects run, and the effect that ends them, by its identity.
///
/// A child told apart by its position alone (neither an enum nor `Identifiable`) always has
/// the same position: its identity is `_Presence` (there or not), and its position and the
/// effect that ends it are made once. Any other child's identity is a `_ChildIdentity`, which
/// holds an `AnyHashable?`: a resilient type of the standard library, so every copy and
/// compare of one goes through the runtime.
@usableFromInline
struct _SingleChildPositions<Identity: Equatable, Action> {
  @usableFromInline let position: (Identity) -> _AnyID
  @usableFromInline let end: (Identity) -> Effect<Action>

  @inlinable
  init(position: @escaping (Identity) -> _AnyID, end: @escaping (Identity) -> Effect<Action>) {
    self.position = position
    self.end = end
  }
}

extension _SingleChildPositions where Identity == _Presence {
  /// The one position of a child told apart by its position alone.
  @inlinable
  init<Child>(fixedIn lifetime: _ChildLifetime<Child>) {
    let position = lifetime.position(.position)
    let end: Effect<Action> = lifetime.end(position)
    self.init(position: { _ in position }, end: { _ in end })
  }
}

extension _SingleChildPositions where Identity == _ChildIdentity {
  /// The positions of a child told apart by its case or its id.
  @inlinable
  init<Child>(identifiedIn lifetime: _ChildLifetime<Child>) {
    self.init(position: lifetime.position, end: { lifetime.end(lifetime.position($0)) })
  }
}

/// The identity of a child told apart by its position alone: it is there or not.
@usableFromInline
struct _Presence: Equatable {
  @inlinable init() {}
}

/// Who a single child is, as a type, so that an adapter compiled for it asks without a call
/// through a function value: `_Presence` never reads the child, `_ChildIdentity` asks the
/// child's lifetime for its case and id.
@usableFromInline
protocol _SingleChildIdentity: Equatable {
  /// The identity of `child`, one of the children `lifetime` tells apart.
  init<Child>(of child: @autoclosure () -> Child, in lifetime: _ChildLifetime<Child>)

  /// Where the children `lifetime` tells apart run their effects, by this identity.
  static func positions<Child, Action>(
    in lifetime: _ChildLifetime<Child>
  ) -> _SingleChildPositions<Self, Action>
}

extension _Presence: _SingleChildIdentity {
  @inlinable @inline(__always)
  init<Child>(of _: @autoclosure () -> Child, in _: _ChildLifetime<Child>) { self.init() }

  @inlinable
  static func positions<Child, Action>(
    in lifetime: _ChildLifetime<Child>
  ) -> _SingleChildPositions<Self, Action> {
    _SingleChildPositions(fixedIn: lifetime)
  }
}

extension _ChildIdentity: _SingleChildIdentity {
  @inlinable
  init<Child>(of child: @autoclosure () -> Child, in lifetime: _ChildLifetime<Child>) {
    self = lifetime.identity(of: child())
  }

  @inlinable
  static func positions<Child, Action>(
    in lifetime: _ChildLifetime<Child>
  ) -> _SingleChildPositions<Self, Action> {
    _SingleChildPositions(identifiedIn: lifetime)
  }
}

/// The reducer `ifLet`, `ifCaseLet`, `forEach` and the stack `forEach` build. (The
/// presentation `ifLet` builds `_PresentationReducer`, which runs the same engine, compiled to a
/// value instead of a function.)
///
/// It holds what every operator is given (the parent, the child, where the child's state and
/// actions are, and where the operator was called) and the operator's adapter over the child
/// engine (below in this file), chosen when the operator is called. You
/// never name it: an operator returns it as `some Reducer`.
public struct _ChildReducer<Parent: Reducer, Child: Reducer, ToChildState, ChildPayload>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: ToChildState
  @usableFromInline let toChildAction: CasePath<Parent.Action, ChildPayload>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  /// Builds the action function: the operator's adapter, run by the engine.
  @usableFromInline let build: (Self) -> _ReduceFunction<Parent.State, Parent.Action>

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: ToChildState,
    toChildAction: CasePath<Parent.Action, ChildPayload>, fileID: StaticString, line: UInt,
    build: @escaping (Self) -> _ReduceFunction<Parent.State, Parent.Action>
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.fileID = fileID
    self.line = line
    self.build = build
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _reduceFunction()(&state, action)
  }

  @inlinable
  public func _reduceFunction() -> _ReduceFunction<Parent.State, Parent.Action> { build(self) }

  /// The engine running `adapter` under the parent's reducer.
  @inlinable
  func _run<Adapter: _ChildAdapter>(_ adapter: Adapter) -> _ReduceFunction<
    Parent.State, Parent.Action
  > where Adapter.ParentState == Parent.State, Adapter.ParentAction == Parent.Action {
    let parent = _ClosureReducer(parent._reduceFunction())
    // Held by a class: captured as a struct, the adapter's references were copied at every
    // action.
    let held = _HeldAdapter(adapter)
    return { state, action in held.adapter.reduce(&state, action, parent: parent) }
  }

  /// The child's identities, positions and warnings, named by the operator's state path.
  @inlinable
  func _lifetime(operator operatorID: _AnyID) -> _ChildLifetime<Child.State> {
    _ChildLifetime(operator: operatorID, fileID: fileID, line: line)
  }
}

extension _ChildReducer: _CompilesToFunction {}

/// A child operator's adapter, held by reference by the operator's action function.
@usableFromInline
final class _HeldAdapter<Adapter: _ChildAdapter> {
  @usableFromInline let adapter: Adapter
  @inlinable init(_ adapter: Adapter) { self.adapter = adapter }
}

/// A child reducer's compiled form, built the first time the child gets an action, then
/// called directly, specialized to the child's type.
///
/// Every child operator builds its child this way so that a feature can contain itself (a node
/// presenting a node, rows holding rows): building the whole tree up front would never end.
/// The cost per action is one check that the child is built; nothing is retained, and no call
/// goes through a function value.
@usableFromInline
final class _LazyCompiled<Child: Reducer> {
  @usableFromInline let reducer: Child
  /// The compiled child, once built; owned by this object (released in `deinit`). Unmanaged,
  /// and held in an object of its own as a constant, so that a call borrows it: a stored
  /// optional, or a pointer's pointee, was copied (its references retained and released) at
  /// every action. Unchecked: read at every action, written once, on the store's actor.
  @usableFromInline @exclusivity(unchecked) var compiled: Unmanaged<_CompiledBox<Child._Compiled>>?

  @inlinable
  init(_ reducer: Child) { self.reducer = reducer }

  deinit { compiled?.release() }

  @inlinable
  func callAsFunction(_ state: inout Child.State, _ action: Child.Action) -> Effect<Child.Action> {
    (compiled ?? build())._withUnsafeGuaranteedRef {
      $0.compiled._reduce(into: &state, action: action)
    }
  }

  @usableFromInline @inline(never)
  func build() -> Unmanaged<_CompiledBox<Child._Compiled>> {
    let built = Unmanaged.passRetained(_CompiledBox(reducer._compile()))
    compiled = built
    return built
  }
}

/// A compiled reducer held by reference, as a constant (see `_LazyCompiled`).
@usableFromInline
final class _CompiledBox<Compiled: _CompiledReducer> {
  @usableFromInline let compiled: Compiled
  @usableFromInline init(_ compiled: Compiled) { self.compiled = compiled }
}
