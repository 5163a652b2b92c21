extension Reducer {
  /// Runs a presented child's reducer while it is presented, before this reducer.
  ///
  /// ```swift
  /// Reduce { state, action in
  ///   if case .editTapped = action { state.editor = Editor.State() }
  ///   return .none
  /// }
  /// .ifLet(\.$editor, action: Action.editor) { Editor() }
  /// ```
  ///
  /// - `.presented(action)` runs the child, then this reducer.
  /// - `.dismiss` runs this reducer first (it sees the child still presented), then dismisses.
  /// - The child can dismiss itself with `@Dependency(\.dismiss)`; its effects see
  ///   `isPresented`.
  /// - `.dismiss` dismisses only the child it was sent to: if the parent presented another child
  ///   in its place while handling it, that child stays.
  /// - Dismissing the child, or replacing it with one of another identity (another `id`, or
  ///   another enum case), cancels every effect it started; writing back the same child keeps
  ///   them.
  /// - An alert or a dialog, presented directly or as a case of a destination enum, is
  ///   dismissed as soon as one of its buttons is sent, before this reducer sees the action.
  /// - An action for a child that is not presented is dropped with a runtime warning naming this
  ///   call's file and line; this reducer still runs.
  @inlinable
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction:
      @escaping @Sendable (PresentationAction<DestinationAction>) ->
      Action,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    _ChildReducer(
      parent: self, child: destination(), toChildState: toPresentationState,
      toChildAction: CasePath(toPresentationAction, fileID: fileID, line: line), fileID: fileID,
      line: line, build: _presentationFunction)
  }

  /// Presents an alert or a confirmation dialog: it is dismissed as soon as one of its buttons
  /// is sent, before this reducer handles the button's action.
  ///
  /// ```swift
  /// .ifLet(\.$alert, action: Action.alert)
  /// ```
  @inlinable
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction:
      @escaping @Sendable (PresentationAction<DestinationAction>) ->
      Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    _ChildReducer(
      parent: self, child: EmptyReducer(), toChildState: toPresentationState,
      toChildAction: CasePath(toPresentationAction, fileID: fileID, line: line), fileID: fileID,
      line: line, build: _presentationFunction)
  }
}

/// State that goes away by itself when the user acts on it: alerts and dialogs.
public protocol _EphemeralState {}

/// The reducer the presentation `ifLet`s build.
public typealias _PresentationReducer<Parent: Reducer, Destination: Reducer> = _ChildReducer<
  Parent, Destination, WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
  PresentationAction<Destination.Action>
>

// Inlinable so that an app's presentation runs specialized to its own types.
@inlinable
func _presentationFunction<Parent: Reducer, Destination: Reducer>(
  _ op: _PresentationReducer<Parent, Destination>
) -> _ReduceFunction<Parent.State, Parent.Action> {
  let lifetime = op._lifetime(operator: _AnyID(keyPath: op.toChildState))
  let path = _PresentationPath(op.toChildState)
  let destination = _LazyReduce(op.child)
  guard lifetime.identifiesByPositionOnly else {
    return op._run(
      _PresentationAdapter(
        lifetime: lifetime, path: path, destination: destination, toAction: op.toChildAction,
        identity: { path.read(&$0) { $0.wrappedValue.map(lifetime.identity(of:)) } },
        identityOf: lifetime.identity(of:),
        positions: _SingleChildPositions(identifiedIn: lifetime)))
  }
  return op._run(
    _PresentationAdapter(
      lifetime: lifetime, path: path, destination: destination, toAction: op.toChildAction,
      // The path read inside the closure: read through a closure, the presentation was
      // retained and released to be handed over.
      identity: { path.read(&$0) { $0._box == nil ? nil : _Presence() } },
      identityOf: { _ in _Presence() },
      positions: _SingleChildPositions(fixedIn: lifetime)))
}

/// The presentation `ifLet`'s adapter: one presented child, told apart by `Identity`.
///
/// Beyond a single child's sequence: `.dismiss` removes the child after the parent ran, only
/// if it is still the one that was asked to go; an alert or a dialog goes away once one of its
/// buttons is sent; the child's effects see `isPresented` and can dismiss it.
@usableFromInline
struct _PresentationAdapter<
  ParentState, ParentAction, ChildState, ChildAction, Identity: Equatable
>: _ChildAdapter {
  @usableFromInline let route: _CaseRoute<ParentAction, PresentationAction<ChildAction>>
  @usableFromInline let lifetime: _ChildLifetime<ChildState>
  @usableFromInline let path: _PresentationPath<ParentState, ChildState>
  @usableFromInline let destination: _LazyReduce<ChildState, ChildAction>
  @usableFromInline let presented = _PresentedDependencies()
  /// Who is presented, `nil` for no one.
  @usableFromInline let identity: (inout ParentState) -> Identity?
  /// Who a child is.
  @usableFromInline let identityOf: (ChildState) -> Identity
  /// Where a child's effects run, and the effect that ends everything a child started.
  @usableFromInline let positions: _SingleChildPositions<Identity, ParentAction>

  @inlinable
  init(
    lifetime: _ChildLifetime<ChildState>, path: _PresentationPath<ParentState, ChildState>,
    destination: _LazyReduce<ChildState, ChildAction>,
    toAction: CasePath<ParentAction, PresentationAction<ChildAction>>,
    identity: @escaping (inout ParentState) -> Identity?,
    identityOf: @escaping (ChildState) -> Identity,
    positions: _SingleChildPositions<Identity, ParentAction>
  ) {
    self.lifetime = lifetime
    self.path = path
    self.destination = destination
    self.route = toAction._route
    self.identity = identity
    self.identityOf = identityOf
    self.positions = positions
  }

  @inlinable @inline(__always)
  func command(_ action: ParentAction) -> _ChildCommand<Void, ChildAction, ChildState>? {
    switch route.extract(action) {
    case let .presented(childAction)?: .child((), childAction)
    case .dismiss?: .remove(())
    case nil: nil
    }
  }

  @inlinable @inline(__always)
  func before(_ state: inout ParentState) -> Identity? { identity(&state) }

  @inlinable
  func runChild(
    _ state: inout ParentState, _: Void, _ action: ChildAction, before: Identity?
  ) -> Effect<ParentAction>? {
    guard let before else { return nil }
    let effect = path.modify(&state) { presentation in
      presentation._modify { child in presented.run { destination(&child, action) } }
    }
    var effects = Effect<ParentAction>.none
    if let effect, !effect.isNone {
      let embed = route.embed
      effects = effect._mapPresented(
        { embed(.presented($0)) }, dismiss: { send in await send(embed(.dismiss)) }
      )._navigation(positions.position(before))
    }
    // An alert or a dialog goes away once one of its buttons is sent, before the parent sees
    // the button's action, unless its own reducer already replaced it.
    guard lifetime.canBeEphemeral else { return effects }
    path.modify(&state) { presentation in
      if let child = presentation.wrappedValue, lifetime.isEphemeral(child),
        identityOf(child) == before
      {
        presentation.wrappedValue = nil
      }
    }
    return effects
  }

  @inlinable @inline(__always)
  func contains(_: inout ParentState, _: Void, before: Identity?) -> Bool { before != nil }

  @inlinable @inline(__always)
  func remove(_ state: inout ParentState, _: Void, before: Identity?) {
    // Only the child that was asked to go: the parent may have presented another one.
    guard let before, identity(&state) == before else { return }
    path.modify(&state) { $0.wrappedValue = nil }
  }

  @inlinable @inline(__always)
  func ended(_ state: inout ParentState, before: Identity?) -> Effect<ParentAction> {
    _endReplacedChild(before: before, now: identity(&state), end: positions.end)
  }

  @inlinable
  func stale(_: _ChildCommandKind, _: Void, in _: ParentState) -> _StaleAction {
    .nothingPresented
  }
}
