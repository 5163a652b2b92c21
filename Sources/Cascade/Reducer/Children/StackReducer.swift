extension Reducer {
  /// Runs the reducer of each screen on a navigation stack, and pushes and pops screens.
  ///
  /// The screens are usually a "path" feature over an enum of destinations, written without
  /// macros as a `Scope` per case:
  ///
  /// ```swift
  /// struct Path: Reducer {
  ///   enum State: Equatable { case detail(Detail.State), settings(Settings.State) }
  ///   enum Action { case detail(Detail.Action), settings(Settings.Action) }
  ///
  ///   var body: some Reducer<State, Action> {
  ///     Scope(state: State.detail, action: Action.detail) { Detail() }
  ///     Scope(state: State.settings, action: Action.settings) { Settings() }
  ///   }
  /// }
  ///
  /// // In the parent:
  /// Reduce { state, action in ... }
  ///   .forEach(\.path, action: Action.path) { Path() }
  /// ```
  ///
  /// - `.element(id:action:)` runs the screen's reducer, then this one.
  /// - `.popFrom(id:)` runs this reducer first (it sees the screens still there), then pops.
  /// - `.push(id:state:)` pushes first, then runs this reducer.
  /// - A screen can pop itself with `@Dependency(\.dismiss)`; its effects see `isPresented`.
  /// - Every effect of a popped screen is cancelled; a screen's cancellation ids never collide
  ///   with another screen's.
  /// - An action for a screen that is not on the stack is dropped with a runtime warning naming
  ///   this call's file and line; this reducer still runs.
  /// - An action, push and pop included, costs O(1) in the size of the stack; only a change
  ///   the stack's change log cannot describe (a whole new stack assigned, many changes in one
  ///   action) costs a hash lookup per screen. The stack is never copied.
  @inlinable
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction:
      @escaping @Sendable (StackAction<DestinationState, DestinationAction>) ->
      Action,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    _ChildReducer(
      parent: self, child: destination(), toChildState: toStackState,
      toChildAction: CasePath(toStackAction, fileID: fileID, line: line), fileID: fileID,
      line: line, build: _stackFunction)
  }
}

/// The reducer ``Reducer/forEach(_:action:destination:fileID:line:)`` builds.
public typealias _StackReducer<Parent: Reducer, Destination: Reducer> = _ChildReducer<
  Parent, Destination, WritableKeyPath<Parent.State, StackState<Destination.State>>,
  StackAction<Destination.State, Destination.Action>
>

// Inlinable so that an app's stack runs specialized to its own state and action types: run
// generically, every action looks up the metadata of the stack's generic types several times.
@inlinable
func _stackFunction<Parent: Reducer, Destination: Reducer>(
  _ op: _StackReducer<Parent, Destination>
) -> _ReduceFunction<Parent.State, Parent.Action> {
  op._run(
    _StackAdapter(
      lifetime: op._lifetime(operator: _AnyID(keyPath: op.toChildState)),
      path: _StatePath(op.toChildState), destination: _LazyCompiled(op.child),
      toAction: op.toChildAction))
}

/// The stack `forEach`'s adapter: the children are the screens, each told apart by its
/// stack's identity and its id.
///
/// Beyond the engine's sequence: `push` and `popFrom` add and remove screens; a screen's
/// effects see `isPresented` and can pop it; the first look at a stack built outside the store
/// moves the store's ids past its own; a new stack put in place of another ends every screen
/// of the old one, whatever ids the new one's screens have.
@usableFromInline
struct _StackAdapter<ParentState, ParentAction, Destination: Reducer>: _ChildAdapter {
  @usableFromInline typealias ElementState = Destination.State
  @usableFromInline typealias ElementAction = Destination.Action

  @usableFromInline let route: _CaseRoute<ParentAction, StackAction<ElementState, ElementAction>>
  @usableFromInline let lifetime: _ChildLifetime<ElementState>
  @usableFromInline let path: _StatePath<ParentState, StackState<ElementState>>
  @usableFromInline let destination: _LazyCompiled<Destination>
  @usableFromInline let presented = _PresentedDependencies()
  @usableFromInline let live = _LiveElements<StackElementID>()
  @usableFromInline let lineage = _StackLineage()

  @inlinable
  init(
    lifetime: _ChildLifetime<ElementState>, path: _StatePath<ParentState, StackState<ElementState>>,
    destination: _LazyCompiled<Destination>,
    toAction: CasePath<ParentAction, StackAction<ElementState, ElementAction>>
  ) {
    self.lifetime = lifetime
    self.path = path
    self.destination = destination
    self.route = toAction._route
  }

  @inlinable @inline(__always)
  func command(_ action: ParentAction) -> _ChildCommand<
    StackElementID, ElementAction, ElementState
  >? {
    switch route.extract(action) {
    case let .element(id, elementAction)?: .child(id, elementAction)
    case let .popFrom(id)?: .remove(id)
    case let .push(id, element)?: .add(id, element)
    case nil: nil
    }
  }

  /// The stack's identity before the action.
  @inlinable @inline(__always)
  func before(_ state: inout ParentState) -> UInt64 {
    let origin = path.read(&state) { $0._origin }
    if lineage.origin == nil {
      // The first look at the stack, which may have been built outside the store: the store
      // never gives its ids to new screens.
      lineage.meet(origin)
      path.read(&state) { _skipStackElementID(past: $0._nextID - 1) }
    }
    live.prepare { path.read(&state) { $0._entries._stamp } }
    return origin
  }

  @inlinable
  func runChild(
    _ state: inout ParentState, _ id: StackElementID, _ action: ElementAction, before origin: UInt64
  ) -> Effect<ParentAction>? {
    let effect = path.modify(&state) { stack in
      stack._modify(id: id) { element in presented.run { destination(&element, action) } }
    }
    guard let effect else { return nil }
    if effect.isNone { return Effect.none }
    let embed = route.embed
    return effect._mapPresented(
      { embed(.element(id: id, action: $0)) },
      dismiss: { send in await send(embed(.popFrom(id: id))) }
    )._navigation(lifetime.position(element: _StackPosition(origin: origin, id: id)))
  }

  @inlinable @inline(__always)
  func contains(_ state: inout ParentState, _ id: StackElementID, before _: UInt64) -> Bool {
    path.read(&state) { $0._entries.contains(id: id) }
  }

  /// Pops after the parent ran: the parent may have popped the screen itself, and only a
  /// screen that was never there is a mistake.
  @inlinable @inline(__always)
  func remove(_ state: inout ParentState, _ id: StackElementID, before _: UInt64) {
    path.modify(&state) { _ = $0.pop(from: id) }
  }

  @inlinable @inline(__always)
  func add(_ state: inout ParentState, _ id: StackElementID, _ element: ElementState) -> Bool {
    path.modify(&state) { $0._push(element, id: id) }
  }

  /// Screens that left the stack, by any route, take their effects with them; a new stack put
  /// in its place takes all of them, whatever ids its own screens have.
  @inlinable @inline(__always)
  func ended(_ state: inout ParentState, before _: UInt64) -> Effect<ParentAction> {
    let now = path.read(&state) { $0._origin }
    guard now == lineage.origin else {
      lineage.meet(now)
      // Every screen of the old stack, whatever its id, and none of the new one's.
      let kept = live.replaced { path.read(&state) { .init($0._entries) } }
      return end(kept, in: now)
    }
    let gone = live.gone(
      stamp: path.read(&state) { $0._entries._stamp },
      lastChange: { path.read(&state) { $0._entries._log.entries.last } },
      { path.read(&state) { .init($0._entries) } })
    guard !gone.isEmpty else { return .none }
    return end(gone, in: now)
  }

  /// Ends the screens that went from the stack whose identity is `now`. "Every screen but the
  /// current ones" means every screen of the stacks this operator met: another stack of the
  /// same feature beside it (a second tab, scoped from the same parent) holds screens at the
  /// same operator, with ids that may be equal, and they are not this stack's to end.
  @inlinable
  func end(_ departures: _Departures<StackElementID>, in now: UInt64) -> Effect<ParentAction> {
    switch departures {
    case let .some(gone): lifetime.end(elements: gone.map { _StackPosition(origin: now, id: $0) })
    case let .allBut(kept):
      Effect(
        .prune(
          _StackPrune(
            operatorID: lifetime.operatorID, origins: lineage.met, current: now, kept: kept)))
    }
  }

  @inlinable
  func stale(_ command: _ChildCommandKind, _ id: StackElementID, in _: ParentState)
    -> _StaleAction
  {
    switch command {
    case .child: .missingScreen(id: id)
    case .remove: .missingPop(id: id)
    case .add: .duplicatePush(id: id)
    }
  }
}

/// A screen's place among all the stacks a store holds: its stack's identity and its id.
@usableFromInline
struct _StackPosition: Hashable, Sendable {
  @usableFromInline let origin: UInt64
  @usableFromInline let id: StackElementID

  @inlinable
  init(origin: UInt64, id: StackElementID) {
    self.origin = origin
    self.id = id
  }
}

/// The identity of the stack a stack `forEach` last saw, `nil` before its first action, and of
/// every stack it met.
///
/// The stacks met are those whose screens this operator may have started effects for: the one
/// it runs now, those it replaced, and, when the operator runs inside each row of a collection,
/// the other rows' stacks (whose screens are out of reach there: a row's prune ends only
/// effects under that row). It grows by one number per stack met, never per action.
@usableFromInline
final class _StackLineage {
  // Unchecked exclusivity: only the stack adapter touches it, one access at a time.
  @usableFromInline @exclusivity(unchecked) var origin: UInt64?
  @usableFromInline @exclusivity(unchecked) var met: Set<UInt64> = []
  @inlinable init() {}

  /// Makes `origin` the stack last seen.
  @inlinable
  func meet(_ origin: UInt64) {
    self.origin = origin
    met.insert(origin)
  }
}

/// Ends every screen of the stacks a stack `forEach` met (see ``_StackLineage``) but the
/// current stack's `kept` screens: what a replaced stack or a change its log cannot describe
/// leaves. A screen of a stack this operator never met (another tab's) is never gone.
@usableFromInline
final class _StackPrune: _NavigationPrune, @unchecked Sendable {
  // `@unchecked`: every property is immutable and `Sendable`.
  @usableFromInline let operatorID: _AnyID
  @usableFromInline let origins: Set<UInt64>
  @usableFromInline let current: UInt64
  @usableFromInline let kept: Set<StackElementID>

  @inlinable
  init(operatorID: _AnyID, origins: Set<UInt64>, current: UInt64, kept: Set<StackElementID>) {
    self.operatorID = operatorID
    self.origins = origins
    self.current = current
    self.kept = kept
  }

  @usableFromInline
  override func isGone(_ position: _AnyID) -> Bool {
    guard
      let navigation = position.base as? _NavigationID,
      navigation.operator == operatorID,
      let screen = navigation.element?.base as? _StackPosition,
      origins.contains(screen.origin)
    else { return false }
    return screen.origin != current || !kept.contains(screen.id)
  }
}
