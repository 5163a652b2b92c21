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
  @inlinable
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
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CasePath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, Wrapped>
  where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    _ChildReducer(
      parent: self, child: wrapped(), toChildState: toWrappedState,
      toChildAction: toWrappedAction, fileID: fileID, line: line, build: _ifLetFunction)
  }
}

/// The reducer ``Reducer/ifLet(_:action:then:fileID:line:)`` builds.
public typealias _IfLetReducer<Parent: Reducer, Child: Reducer> = _ChildReducer<
  Parent, Child, WritableKeyPath<Parent.State, Child.State?>, Child.Action
>

/// `ifLet`'s adapter: the child is the optional's value, told apart by its identity.
/// Inlinable so that an app's `ifLet` runs specialized to its own types.
@inlinable
func _ifLetFunction<Parent: Reducer, Child: Reducer>(
  _ op: _IfLetReducer<Parent, Child>
) -> _ReduceFunction<Parent.State, Parent.Action> {
  let lifetime = op._lifetime(operator: _AnyID(keyPath: op.toChildState))
  guard lifetime.identifiesByPositionOnly else {
    return _ifLetFunction(op, lifetime, identifiedBy: _ChildIdentity.self)
  }
  return _ifLetFunction(op, lifetime, identifiedBy: _Presence.self)
}

/// `ifLet`'s adapter, its children told apart by `Identity`.
@inlinable
func _ifLetFunction<Parent: Reducer, Child: Reducer, Identity: _SingleChildIdentity>(
  _ op: _IfLetReducer<Parent, Child>, _ lifetime: _ChildLifetime<Child.State>,
  identifiedBy _: Identity.Type
) -> _ReduceFunction<Parent.State, Parent.Action> {
  let path = _StatePath(op.toChildState)
  let child = _LazyCompiled(op.child)
  return op._run(
    _SingleChildAdapter(
      lifetime: lifetime, route: op.toChildAction._route,
      identity: { state in path.read(&state) { $0.map { Identity(of: $0, in: lifetime) } } },
      positions: Identity.positions(in: lifetime),
      runChild: { state, childAction in path.modify(&state) { child(&$0!, childAction) } },
      stale: { _ in .optionalChildIsNil }))
}
