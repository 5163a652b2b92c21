extension Reducer {
  /// Runs a child reducer on optional child state while it is present, before this reducer.
  ///
  /// ```swift
  /// struct Parent: Reducer {
  ///   struct State { var editor: Editor.State? }
  ///   enum Action { case editTapped, editor(Editor.Action) }
  ///
  ///   var body: some Reducer<State, Action> {
  ///     Reduce { state, action in
  ///       if case .editTapped = action { state.editor = Editor.State() }
  ///       return .none
  ///     }
  ///     .ifLet(\.editor, action: Action.editor) { Editor() }
  ///   }
  /// }
  /// ```
  ///
  /// - The child runs first, then this reducer, so the parent sees the child's changes.
  /// - When the child state becomes `nil`, every effect the child started is cancelled.
  /// - A child action that arrives while the state is `nil` is dropped with a runtime warning
  ///   naming this call's file and line; this reducer still runs.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: @escaping @Sendable (WrappedAction) -> Action,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, Wrapped>
  where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    ifLet(
      toWrappedState, action: CasePath(toWrappedAction, fileID: fileID, line: line), then: wrapped,
      fileID: fileID, line: line)
  }

  /// ``ifLet(_:action:then:fileID:line:)`` with an explicit action case path.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CasePath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, Wrapped>
  where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    _IfLetReducer(
      parent: self, child: wrapped(), toChildState: toWrappedState,
      toChildAction: toWrappedAction, fileID: fileID, line: line)
  }
}

/// The reducer ``Reducer/ifLet(_:action:then:fileID:line:)`` builds.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: CasePath<Parent.Action, Child.Action>
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _reduceFunction()(&state, action)
  }

  public func _reduceFunction() -> _ReduceFunction<Parent.State, Parent.Action> {
    let parent = parent._reduceFunction()
    let child = child._reduceFunction()
    let path = _StatePath(toChildState)
    let extract = toChildAction._extract
    let embed = toChildAction._embed
    let navigationID = _AnyID(_NavigationID(operator: _AnyID(keyPath: toChildState), element: nil))
    let prune = Effect<Parent.Action>(.prune(_NavigationPrune { $0 == navigationID }))
    let (fileID, line) = (fileID, line)
    return { state, action in
      var childEffect = Effect<Parent.Action>.none
      if let childAction = extract(action) {
        let effect = path.modify(&state) { childState -> Effect<Child.Action>? in
          guard childState != nil else { return nil }
          return child(&childState!, childAction)
        }
        if let effect {
          if !effect.isNone { childEffect = effect.map(embed)._navigation(navigationID) }
        } else {
          reportRuntimeWarning(
            """
            An 'ifLet' received a child action while its child state was nil.

              Action: \(_describe(action))

            The action was dropped and the parent reducer still ran. This usually means:
              - an effect of the child sent it after the child was dismissed (child effects are \
            cancelled on dismissal, so look for one started elsewhere), or
              - a view or test sent it to a child that is not presented.
            Make sure the child state is non-nil before sending it actions.
            """,
            fileID: fileID, line: line)
        }
      }
      let wasPresent = path.read(&state) { $0 != nil }
      let parentEffect = parent(&state, action)
      let isPresent = path.read(&state) { $0 != nil }
      let effect = childEffect.merge(with: parentEffect)
      return wasPresent && !isPresent ? effect.merge(with: prune) : effect
    }
  }
}
