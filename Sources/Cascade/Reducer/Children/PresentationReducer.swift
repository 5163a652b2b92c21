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
    _PresentationReducer(
      parent: self, destination: destination(), toPresentationState: toPresentationState,
      toPresentationAction: CasePath(toPresentationAction, fileID: fileID, line: line),
      fileID: fileID, line: line)
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
    _PresentationReducer(
      parent: self, destination: EmptyReducer(), toPresentationState: toPresentationState,
      toPresentationAction: CasePath(toPresentationAction, fileID: fileID, line: line),
      fileID: fileID, line: line)
  }
}

/// State that goes away by itself when the user acts on it: alerts and dialogs.
public protocol _EphemeralState {}

/// The reducer the presentation `ifLet`s build. You never name it: the operator returns it as
/// `some Reducer`.
///
/// Unlike the other child operators, it compiles to a value whose type names its parent's
/// compiled form and its destination's reducer type (``_CompiledPresentation``), as a `Scope`
/// does: a presentation level runs as one specialized function that calls its parent and its
/// destination directly, without a call through a function value. A feature that presents
/// itself still compiles: the destination's compiled form is built the first time it gets an
/// action, and held by reference.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  public typealias State = Parent.State
  public typealias Action = Parent.Action

  @usableFromInline let parent: Parent
  @usableFromInline let destination: Destination
  @usableFromInline let toPresentationState:
    WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  @usableFromInline let toPresentationAction:
    CasePath<Parent.Action, PresentationAction<Destination.Action>>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(
    parent: Parent, destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: CasePath<Parent.Action, PresentationAction<Destination.Action>>,
    fileID: StaticString, line: UInt
  ) {
    self.parent = parent
    self.destination = destination
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.fileID = fileID
    self.line = line
  }

  /// Runs one action. A store compiles the reducer once; called directly, each call starts
  /// from a new presentation lifetime.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _compile()._reduce(into: &state, action: action)
  }

  @inlinable
  public func _compile() -> _CompiledPresentation<Parent._Compiled, Destination> {
    let lifetime = _ChildLifetime<Destination.State>(
      operator: _AnyID(keyPath: toPresentationState), fileID: fileID, line: line)
    let path = _PresentationPath(toPresentationState)
    let destination = _LazyCompiled(self.destination)
    let route = toPresentationAction._route
    guard lifetime.identifiesByPositionOnly else {
      return _CompiledPresentation(
        parent: parent._compile(),
        identified: _PresentationAdapter(
          lifetime: lifetime, path: path, destination: destination, route: route))
    }
    return _CompiledPresentation(
      parent: parent._compile(),
      byPosition: _PresentationAdapter(
        lifetime: lifetime, path: path, destination: destination, route: route))
  }
}

/// A presentation `ifLet`, compiled: the parent's compiled form and the adapter the child
/// engine runs (see `ChildEngine.swift`), one of two kinds chosen when the store is built: a
/// child told apart by its position alone, or by its case or id.
public struct _CompiledPresentation<Parent: _CompiledReducer, Destination: Reducer>:
  _CompiledReducer
{
  @usableFromInline typealias Adapter<Identity: _SingleChildIdentity> = _PresentationAdapter<
    Parent.State, Parent.Action, Destination, Identity
  >

  @usableFromInline let parent: Parent
  /// Keeps the adapter alive; the calls go through the unmanaged reference below, which a
  /// call borrows: through a stored reference, each level retained and released its adapter
  /// around every action.
  @usableFromInline let owner: AnyObject
  @usableFromInline let byPosition: Unmanaged<Adapter<_Presence>>?
  @usableFromInline let identified: Unmanaged<Adapter<_ChildIdentity>>?

  @inlinable
  init(parent: Parent, byPosition: Adapter<_Presence>) {
    self.parent = parent
    self.owner = byPosition
    self.byPosition = Unmanaged.passUnretained(byPosition)
    self.identified = nil
  }

  @inlinable
  init(parent: Parent, identified: Adapter<_ChildIdentity>) {
    self.parent = parent
    self.owner = identified
    self.byPosition = nil
    self.identified = Unmanaged.passUnretained(identified)
  }

  @inlinable
  public func _reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    if let byPosition {
      return byPosition._withUnsafeGuaranteedRef { $0.reduce(&state, action, parent: parent) }
    }
    return identified.unsafelyUnwrapped._withUnsafeGuaranteedRef {
      $0.reduce(&state, action, parent: parent)
    }
  }
}

/// The presentation `ifLet`'s adapter: one presented child, told apart by `Identity`.
///
/// Beyond a single child's sequence: `.dismiss` removes the child after the parent ran, only
/// if it is still the one that was asked to go; an alert or a dialog goes away once one of its
/// buttons is sent; the child's effects see `isPresented` and can dismiss it.
@usableFromInline
final class _PresentationAdapter<
  ParentState, ParentAction, Destination: Reducer, Identity: _SingleChildIdentity
>: _ChildAdapter {
  @usableFromInline typealias ChildState = Destination.State
  @usableFromInline typealias ChildAction = Destination.Action

  @usableFromInline let route: _CaseRoute<ParentAction, PresentationAction<ChildAction>>
  @usableFromInline let lifetime: _ChildLifetime<ChildState>
  @usableFromInline let path: _PresentationPath<ParentState, ChildState>
  @usableFromInline let destination: _LazyCompiled<Destination>
  @usableFromInline let presented = _PresentedDependencies()
  /// Where a child's effects run, and the effect that ends everything a child started.
  @usableFromInline let positions: _SingleChildPositions<Identity, ParentAction>

  @inlinable
  init(
    lifetime: _ChildLifetime<ChildState>, path: _PresentationPath<ParentState, ChildState>,
    destination: _LazyCompiled<Destination>,
    route: _CaseRoute<ParentAction, PresentationAction<ChildAction>>
  ) {
    self.lifetime = lifetime
    self.path = path
    self.destination = destination
    self.route = route
    self.positions = Identity.positions(in: lifetime)
  }

  /// Who is presented, `nil` for no one. Read in place: a child told apart by its position
  /// alone is not read at all.
  @inlinable @inline(__always)
  func identity(_ state: inout ParentState) -> Identity? {
    path.read(&state) { presentation in
      guard let box = presentation._box else { return nil }
      return Identity(of: box.value.unsafelyUnwrapped, in: lifetime)
    }
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

  @inlinable @inline(__always)
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
        Identity(of: child, in: lifetime) == before
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
