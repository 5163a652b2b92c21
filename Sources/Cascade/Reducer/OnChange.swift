extension Reducer {
  /// Runs `reducer` after this one whenever an action changed the value `toValue` reads.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in ... }
  ///     .onChange(of: { $0.searchText }) { oldText, newText in
  ///       Reduce { state, _ in
  ///         state.results = state.all.filter { $0.name.contains(newText) }
  ///         return .none
  ///       }
  ///     }
  /// }
  /// ```
  ///
  /// `reducer` receives the old and new values and runs with the same state and action.
  public func onChange<Value: Equatable, Changed: Reducer>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (
        _ oldValue: Value, _ newValue: Value
      ) -> Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

/// The reducer ``Reducer/onChange(of:_:)`` builds.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Changed: Reducer>: Reducer
where Changed.State == Base.State, Changed.Action == Base.Action {
  let base: Base
  let toValue: (Base.State) -> Value
  let reducer: (Value, Value) -> Changed

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    _reduceFunction()(&state, action)
  }

  public func _reduceFunction() -> _ReduceFunction<Base.State, Base.Action> {
    let base = base._reduceFunction()
    let (toValue, reducer) = (toValue, self.reducer)
    return { state, action in
      let oldValue = toValue(state)
      let effect = base(&state, action)
      let newValue = toValue(state)
      guard oldValue != newValue else { return effect }
      return effect.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
    }
  }
}

extension _OnChangeReducer: _CompilesToFunction {}
