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
  /// - When the child state becomes `nil`, or is replaced by a child of another identity
  ///   (another `id` when it is `Identifiable`, another case when it is an enum), every effect
  ///   the child started is cancelled.
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
    let child = _LazyReduce(child)
    let path = _StatePath(toChildState)
    let extract = toChildAction._extract
    let embed = toChildAction._embed
    let lifetime = _ChildLifetime<Child.State>(
      operator: _AnyID(keyPath: toChildState), fileID: fileID, line: line)
    let positionOnly = lifetime.identifiesByPositionOnly
    let engine = _SingleChildEngine<Parent.State, Parent.Action, Child.State, Child.Action>(
      lifetime: lifetime, extract: extract, embed: embed,
      identity: { state in
        path.read(&state) { child in
          if positionOnly { return child == nil ? nil : .position }
          return child.map(lifetime.identity(of:))
        }
      },
      runChild: { state, childAction in path.modify(&state) { child(&$0!, childAction) } },
      stale: { _ in .optionalChildIsNil })
    return { state, action in engine.reduce(&state, action, parent: parent) }
  }
}

extension _IfLetReducer: _CompilesToFunction {}
