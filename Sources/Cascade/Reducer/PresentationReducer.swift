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

/// The reducer the presentation `ifLet`s build.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let destination: Destination
  @usableFromInline
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  @usableFromInline
  let toPresentationAction: CasePath<Parent.Action, PresentationAction<Destination.Action>>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @usableFromInline
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

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _reduceFunction()(&state, action)
  }

  // Inlinable so that an app's presentation runs specialized to its own types.
  @inlinable
  public func _reduceFunction() -> _ReduceFunction<Parent.State, Parent.Action> {
    let lifetime = _ChildLifetime<Destination.State>(
      operator: _AnyID(keyPath: toPresentationState), fileID: fileID, line: line)
    guard lifetime.identifiesByPositionOnly else {
      return _reduceFunction(
        lifetime: lifetime,
        identity: { $0.wrappedValue.map(lifetime.identity(of:)) },
        identityOf: lifetime.identity(of:),
        end: { lifetime.end(lifetime.position($0)) },
        position: lifetime.position)
    }
    // A child told apart by its position alone always has the same position: its position and
    // the effect that ends it are made once, not at every action, and whether it is there is
    // all its identity says (a `_ChildIdentity` holds an `AnyHashable?`, whose every copy and
    // compare goes through the runtime).
    let fixedPosition = lifetime.position(.position)
    let endFixedPosition: Effect<Parent.Action> = lifetime.end(fixedPosition)
    return _reduceFunction(
      lifetime: lifetime,
      identity: { $0._box == nil ? nil : _Presence() },
      identityOf: { _ in _Presence() },
      end: { _ in endFixedPosition },
      position: { _ in fixedPosition })
  }

  /// The action function, for children identified by `Identity`: `identity` says who is
  /// presented (nil for no one), `identityOf` who a child is, `position` where the effects of a
  /// child run, and `end` the effect that ends them.
  @inlinable
  func _reduceFunction<Identity: Equatable>(
    lifetime: _ChildLifetime<Destination.State>,
    identity: @escaping (PresentationState<Destination.State>) -> Identity?,
    identityOf: @escaping (Destination.State) -> Identity,
    end: @escaping (Identity) -> Effect<Parent.Action>,
    position: @escaping (Identity) -> _AnyID
  ) -> _ReduceFunction<Parent.State, Parent.Action> {
    let parent = parent._reduceFunction()
    let destination = _LazyReduce(destination)
    let path = _PresentationPath(toPresentationState)
    let extract = toPresentationAction._extract
    let constructor = toPresentationAction._constructor
    let embed = toPresentationAction._embed
    let presented = _PresentedDependencies()

    return { state, action in
      let before = path.read(&state, identity)
      var effects = Effect<Parent.Action>.none
      switch _extractPayload(action, constructor, extract) {
      case let .presented(childAction)?:
        if let before {
          let effect = path.modify(&state) { presentation in
            presentation._modify { child in presented.run { destination(&child, childAction) } }
          }
          if let effect, !effect.isNone {
            effects = effect._mapPresented(
              { embed(.presented($0)) },
              dismiss: { send in await send(embed(.dismiss)) }
            )._navigation(position(before))
          }
          // An alert or a dialog goes away once one of its buttons is sent, before the parent
          // sees the button's action, unless its own reducer already replaced it.
          path.modify(&state) { presentation in
            if let child = presentation.wrappedValue, lifetime.isEphemeral(child),
              identityOf(child) == before
            {
              presentation.wrappedValue = nil
            }
          }
        } else {
          _reportAbsentPresentation(action, lifetime: lifetime)
        }
        effects = effects.merge(with: parent(&state, action))
      case .dismiss?:
        effects = parent(&state, action)
        if before == nil {
          _reportAbsentPresentation(action, lifetime: lifetime)
        } else if path.read(&state, identity) == before {
          // Only the child that was asked to go: the parent may have presented another one.
          path.modify(&state) { $0.wrappedValue = nil }
        }
      case nil:
        effects = parent(&state, action)
      }
      guard let before, path.read(&state, identity) != before else { return effects }
      // Dismissed or replaced by another child: end everything the previous one started.
      return effects.merge(with: end(before))
    }
  }
}

/// The identity of a child told apart by its position alone: it is there or not.
@usableFromInline
struct _Presence: Equatable {
  @inlinable init() {}
}

/// Reports an action a presentation `ifLet` dropped, at the operator's file and line.
@usableFromInline
func _reportAbsentPresentation<Action, Child>(_ action: Action, lifetime: _ChildLifetime<Child>) {
  lifetime.reportStale(.nothingPresented, action: action)
}

extension _PresentationReducer: _CompilesToFunction {}
