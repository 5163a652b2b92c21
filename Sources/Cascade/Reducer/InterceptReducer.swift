extension Reducer {
  /// Sees every action this reducer handles, before and after it runs: for logging,
  /// analytics or assertions. `printChanges` and `record` are built on it.
  ///
  /// ```swift
  /// Feature()
  ///   .intercept(after: { state, action, _ in
  ///     analytics.track("\(action)", count: state.items.count)
  ///   })
  /// ```
  ///
  /// It costs nothing where it is not used: it is a reducer in the tree, not a hook every
  /// store checks.
  public func intercept(
    before: @escaping (_ state: State, _ action: Action) -> Void = { _, _ in },
    after: @escaping (_ state: State, _ action: Action, _ effect: Effect<Action>) -> Void = {
      _, _, _ in
    }
  ) -> _InterceptReducer<Self> {
    _InterceptReducer(base: self) { state, action, reduce in
      before(state, action)
      let effect = reduce(&state)
      after(state, action, effect)
      return effect
    }
  }
}

/// The reducer ``Reducer/intercept(before:after:)`` builds: runs the base through `around`.
public struct _InterceptReducer<Base: Reducer>: Reducer {
  typealias Around = (
    _ state: inout Base.State, _ action: Base.Action,
    _ reduce: (inout Base.State) -> Effect<Base.Action>
  ) -> Effect<Base.Action>

  let base: Base
  let around: Around

  init(base: Base, around: @escaping Around) {
    self.base = base
    self.around = around
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    _reduceFunction()(&state, action)
  }

  public func _reduceFunction() -> _ReduceFunction<Base.State, Base.Action> {
    let (base, around) = (base._reduceFunction(), around)
    return { state, action in
      around(&state, action) { base(&$0, action) }
    }
  }
}

extension _InterceptReducer: _CompilesToFunction {}
