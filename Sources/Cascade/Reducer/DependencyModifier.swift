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
    _DependencyModifierReducer(base: self, isConstant: true) { $0[keyPath: keyPath] = value }
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
    _DependencyModifierReducer(base: self, isConstant: false) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer ``Reducer/dependency(_:_:)`` and ``Reducer/transformDependency(_:transform:)``
/// build.
public struct _DependencyModifierReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  /// Whether `update` sets a value given once (`dependency(_:_:)`), rather than transforming it.
  @usableFromInline let isConstant: Bool
  @usableFromInline let update: @Sendable (inout DependencyValues) -> Void

  @usableFromInline
  init(
    base: Base, isConstant: Bool, update: @escaping @Sendable (inout DependencyValues) -> Void
  ) {
    self.base = base
    self.isConstant = isConstant
    self.update = update
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    _reduceFunction()(&state, action)
  }

  @inlinable
  public func _reduceFunction() -> _ReduceFunction<Base.State, Base.Action> {
    // The base's body is built inside the override too, for reducers that read dependencies
    // while building it.
    let override = _DependencyOverride(isConstant: isConstant, update: update)
    let base = DependencyValues._withValue(override.values()) { self.base._reduceFunction() }
    return { state, action in override.run { base(&state, action) } }
  }
}

extension _DependencyModifierReducer: _CompilesToFunction {}
