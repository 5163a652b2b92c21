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
    _StackReducer(
      parent: self, destination: destination(), toStackState: toStackState,
      toStackAction: CasePath(toStackAction, fileID: fileID, line: line), fileID: fileID, line: line
    )
  }
}

/// The reducer ``Reducer/forEach(_:action:destination:fileID:line:)`` builds.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let destination: Destination
  @usableFromInline let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>
  @usableFromInline
  let toStackAction: CasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @usableFromInline
  init(
    parent: Parent, destination: Destination,
    toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>,
    toStackAction: CasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>,
    fileID: StaticString, line: UInt
  ) {
    self.parent = parent
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.fileID = fileID
    self.line = line
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _reduceFunction()(&state, action)
  }

  // Inlinable so that an app's stack runs specialized to its own state and action types: run
  // generically, every action looks up the metadata of the stack's generic types several times.
  @inlinable
  public func _reduceFunction() -> _ReduceFunction<Parent.State, Parent.Action> {
    let parent = parent._reduceFunction()
    let destination = _LazyReduce(destination)
    let path = _StatePath(toStackState)
    let extract = toStackAction._extract
    let constructor = toStackAction._constructor
    let embed = toStackAction._embed
    let lifetime = _ChildLifetime<Destination.State>(
      operator: _AnyID(keyPath: toStackState), fileID: fileID, line: line)
    let presented = _PresentedDependencies()
    let live = _LiveElements<StackElementID>()
    let lineage = _StackLineage()

    return { state, action in
      let origin = path.read(&state) { $0._origin }
      if lineage.origin == nil {
        // The first look at the stack, which may have been built outside the store: the store
        // never gives its ids to new screens.
        lineage.origin = origin
        path.read(&state) { _skipStackElementID(past: $0._nextID - 1) }
      }
      live.prepare { path.read(&state) { .init($0._entries) } }
      var effects = Effect<Parent.Action>.none
      switch _extractPayload(action, constructor, extract) {
      case let .element(id, elementAction)?:
        let effect = path.modify(&state) { stack in
          stack._modify(id: id) { element in presented.run { destination(&element, elementAction) }
          }
        }
        if let effect {
          if !effect.isNone {
            effects = effect._mapPresented(
              { embed(.element(id: id, action: $0)) },
              dismiss: { send in await send(embed(.popFrom(id: id))) }
            )._navigation(lifetime.position(element: _StackPosition(origin: origin, id: id)))
          }
        } else {
          _reportStackProblem(.missingElement, id: id, action: action, lifetime: lifetime)
        }
        effects = effects.merge(with: parent(&state, action))
      case let .popFrom(id)?:
        let wasOnStack = path.read(&state) { $0._entries.contains(id: id) }
        effects = parent(&state, action)
        // The parent may have popped the screen itself: only a screen that was never there
        // is a mistake.
        path.modify(&state) { _ = $0.pop(from: id) }
        if !wasOnStack {
          _reportStackProblem(.missingPop, id: id, action: action, lifetime: lifetime)
        }
      case let .push(id, element)?:
        if !path.modify(&state, { $0._push(element, id: id) }) {
          _reportStackProblem(.duplicatePush, id: id, action: action, lifetime: lifetime)
        }
        effects = parent(&state, action)
      case nil:
        effects = parent(&state, action)
      }
      // Screens that left the stack, by any route, take their effects with them; a new stack
      // put in its place takes all of them, whatever ids its own screens have.
      let now = path.read(&state) { $0._origin }
      guard now == lineage.origin else {
        let replaced = lineage.origin ?? origin
        lineage.origin = now
        let gone = live.replaced { path.read(&state) { .init($0._entries) } }
        guard !gone.isEmpty else { return effects }
        return effects.merge(
          with: lifetime.end(elements: gone.map { _StackPosition(origin: replaced, id: $0) }))
      }
      let gone = live.gone(
        stamp: path.read(&state) { $0._entries._stamp },
        lastChange: { path.read(&state) { $0._entries._log.entries.last } },
        { path.read(&state) { .init($0._entries) } })
      guard !gone.isEmpty else { return effects }
      return effects.merge(
        with: lifetime.end(elements: gone.map { _StackPosition(origin: now, id: $0) }))
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

/// The identity of the stack a stack `forEach` last saw, `nil` before its first action.
@usableFromInline
final class _StackLineage {
  @usableFromInline var origin: UInt64?
  @inlinable init() {}
}

/// What a stack `forEach` found wrong with an action.
@usableFromInline
enum _StackProblem {
  case missingElement, missingPop, duplicatePush
}

/// Reports an action a stack `forEach` dropped, at the operator's file and line.
@usableFromInline
func _reportStackProblem<Action, Child>(
  _ problem: _StackProblem, id: StackElementID, action: Action, lifetime: _ChildLifetime<Child>
) {
  let kind: _StaleAction =
    switch problem {
    case .missingElement: .missingScreen(id: id)
    case .missingPop: .missingPop(id: id)
    case .duplicatePush: .duplicatePush(id: id)
    }
  lifetime.reportStale(kind, action: action)
}

extension _StackReducer: _CompilesToFunction {}
