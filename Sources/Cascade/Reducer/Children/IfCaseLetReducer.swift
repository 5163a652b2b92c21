extension Reducer {
  /// Runs a child reducer while enum state is in one case, before this reducer.
  ///
  /// ```swift
  /// struct App: Reducer {
  ///   enum State { case loggedOut(Login.State), loggedIn(Home.State) }
  ///   enum Action { case login(Login.Action), home(Home.Action) }
  ///
  ///   var body: some Reducer<State, Action> {
  ///     Reduce { state, action in
  ///       if case .login(.delegate(.succeeded)) = action { state = .loggedIn(Home.State()) }
  ///       return .none
  ///     }
  ///     .ifCaseLet(State.loggedOut, action: Action.login) { Login() }
  ///     .ifCaseLet(State.loggedIn, action: Action.home) { Home() }
  ///   }
  /// }
  /// ```
  ///
  /// When the state leaves the case, or the case holds a child of another identity (another
  /// `id` when it is `Identifiable`), every effect the child started is cancelled. A child action
  /// that arrives while the state is in another case is dropped with a runtime warning naming
  /// this call's file and line; this reducer still runs.
  public func ifCaseLet<CaseState, CaseAction, CaseReducer: Reducer>(
    _ toCaseState: @escaping @Sendable (CaseState) -> State,
    action toCaseAction: @escaping @Sendable (CaseAction) -> Action,
    @ReducerBuilder<CaseState, CaseAction> then caseReducer: () -> CaseReducer,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfCaseLetReducer<Self, CaseReducer>
  where CaseState == CaseReducer.State, CaseAction == CaseReducer.Action {
    ifCaseLet(
      CasePath(toCaseState, fileID: fileID, line: line),
      action: CasePath(toCaseAction, fileID: fileID, line: line), then: caseReducer,
      fileID: fileID, line: line)
  }

  /// ``ifCaseLet(_:action:then:fileID:line:)`` with explicit case paths.
  public func ifCaseLet<CaseState, CaseAction, CaseReducer: Reducer>(
    _ toCaseState: CasePath<State, CaseState>,
    action toCaseAction: CasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then caseReducer: () -> CaseReducer,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfCaseLetReducer<Self, CaseReducer>
  where CaseState == CaseReducer.State, CaseAction == CaseReducer.Action {
    _ChildReducer(
      parent: self, child: caseReducer(), toChildState: toCaseState,
      toChildAction: toCaseAction, fileID: fileID, line: line, build: _ifCaseLetFunction)
  }
}

/// The reducer ``Reducer/ifCaseLet(_:action:then:fileID:line:)`` builds.
public typealias _IfCaseLetReducer<Parent: Reducer, Child: Reducer> = _ChildReducer<
  Parent, Child, CasePath<Parent.State, Child.State>, Child.Action
>

/// `ifCaseLet`'s adapter: the child is the case's payload, told apart by its identity.
func _ifCaseLetFunction<Parent: Reducer, Child: Reducer>(
  _ op: _IfCaseLetReducer<Parent, Child>
) -> _ReduceFunction<Parent.State, Parent.Action> {
  // One navigation position per operator: its file and line tell two ifCaseLets apart.
  let lifetime = op._lifetime(operator: _AnyID("ifCaseLet \(op.fileID):\(op.line)"))
  guard lifetime.identifiesByPositionOnly else {
    return _ifCaseLetFunction(op, lifetime, identifiedBy: _ChildIdentity.self)
  }
  return _ifCaseLetFunction(op, lifetime, identifiedBy: _Presence.self)
}

/// `ifCaseLet`'s adapter, its children told apart by `Identity`.
func _ifCaseLetFunction<Parent: Reducer, Child: Reducer, Identity: _SingleChildIdentity>(
  _ op: _IfCaseLetReducer<Parent, Child>, _ lifetime: _ChildLifetime<Child.State>,
  identifiedBy _: Identity.Type
) -> _ReduceFunction<Parent.State, Parent.Action> {
  let child = _LazyCompiled(op.child)
  let toChildState = op.toChildState._route
  return op._run(
    _SingleChildAdapter(
      lifetime: lifetime, route: op.toChildAction._route,
      identity: { state in toChildState.extract(state).map { Identity(of: $0, in: lifetime) } },
      positions: Identity.positions(in: lifetime),
      runChild: { state, childAction in
        // The engine found the child, so the state is in the case.
        var childState = toChildState.extract(state)!
        let effect = child(&childState, childAction)
        state = toChildState.embed(childState)
        return effect
      },
      stale: { state in .otherCase(found: _caseName(state)) }))
}
