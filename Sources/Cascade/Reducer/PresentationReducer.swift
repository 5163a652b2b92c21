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
  /// - Dismissing or replacing the child cancels every effect it started.
  /// - An action for a child that is not presented is dropped with a runtime warning naming this
  ///   call's file and line; this reducer still runs.
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
  let parent: Parent
  let destination: Destination
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  let toPresentationAction: CasePath<Parent.Action, PresentationAction<Destination.Action>>
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _reduceFunction()(&state, action)
  }

  public func _reduceFunction() -> _ReduceFunction<Parent.State, Parent.Action> {
    let parent = parent._reduceFunction()
    let destination = destination._reduceFunction()
    let path = _StatePath(toPresentationState)
    let extract = toPresentationAction._extract
    let embed = toPresentationAction._embed
    let keyPath = _AnyID(keyPath: toPresentationState)
    let isEphemeral = Destination.State.self is any _EphemeralState.Type
    let presented = _PresentedDependencies()
    let (fileID, line) = (fileID, line)

    func position(_ id: UInt64) -> _AnyID {
      _AnyID(_NavigationID(operator: keyPath, element: _AnyID(id)))
    }

    func warn(_ action: Parent.Action) {
      reportRuntimeWarning(
        """
        A presentation 'ifLet' received an action while nothing was presented.

          Action: \(_describe(action))

        The action was dropped and the parent reducer still ran. This usually means an action \
        was sent to a child after it was dismissed (its effects were cancelled, so look for a \
        view or test still sending to it).
        """,
        fileID: fileID, line: line)
    }

    return { state, action in
      let idBefore = path.read(&state) { $0._id }
      var effects = Effect<Parent.Action>.none
      switch extract(action) {
      case let .presented(childAction)?:
        if idBefore == 0 {
          warn(action)
        } else if isEphemeral {
          path.modify(&state) { $0.wrappedValue = nil }
        } else {
          let effect = path.modify(&state) { presentation in
            presented.run { destination(&presentation.storage!, childAction) }
          }
          if !effect.isNone {
            effects = effect._mapPresented(
              { embed(.presented($0)) },
              dismiss: { send in await send(embed(.dismiss)) }
            )._navigation(position(idBefore))
          }
        }
        effects = effects.merge(with: parent(&state, action))
      case .dismiss?:
        effects = parent(&state, action)
        if path.read(&state, { $0._id }) == 0, idBefore == 0 {
          warn(action)
        } else {
          path.modify(&state) { $0.wrappedValue = nil }
        }
      case nil:
        effects = parent(&state, action)
      }
      let idAfter = path.read(&state) { $0._id }
      guard idBefore != 0, idAfter != idBefore else { return effects }
      // Dismissed or replaced: cancel everything the previous presentation started.
      let gone = position(idBefore)
      return effects.merge(with: Effect(.prune(_NavigationPrune { $0 == gone })))
    }
  }
}
