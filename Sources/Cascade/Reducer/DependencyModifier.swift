extension Reducer {
  /// This reducer, with the dependency at `keyPath` set to `value` for it and everything it
  /// runs (its children and the effects they create), and nowhere else.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Scope(state: \.onboarding, action: Action.onboarding) {
  ///     Onboarding()
  ///       .dependency(\.continuousClock, ImmediateClock())
  ///   }
  /// }
  /// ```
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> _DependencyModifierReducer<Self> {
    _DependencyModifierReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// This reducer, with the dependency at `keyPath` changed by `transform` for it and
  /// everything it runs.
  ///
  /// ```swift
  /// Child()
  ///   .transformDependency(\.analytics) { analytics in
  ///     analytics = analytics.prefixed("child.")
  ///   }
  /// ```
  public func transformDependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (inout Value) -> Void
  ) -> _DependencyModifierReducer<Self> {
    _DependencyModifierReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer ``Reducer/dependency(_:_:)`` and ``Reducer/transformDependency(_:transform:)``
/// build.
public struct _DependencyModifierReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: @Sendable (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    _reduceFunction()(&state, action)
  }

  public func _reduceFunction() -> _ReduceFunction<Base.State, Base.Action> {
    // The base's body is built inside the override too, for reducers that read dependencies
    // while building it.
    var values = DependencyValues._current
    update(&values)
    let base = DependencyValues._withValue(values) { self.base._reduceFunction() }
    let update = update
    return { state, action in
      var values = DependencyValues._current
      update(&values)
      return DependencyValues._withValue(values) { base(&state, action) }
    }
  }
}
