/// Groups reducers so that a modifier applies to all of them.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   CombineReducers {
///     Scope(state: \.profile, action: Action.profile) { Profile() }
///     Reduce { state, action in .none }
///   }
///   .ifLet(\.alert, action: Action.alert) { Alert() }
/// }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers listed in `build`.
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  /// Runs the combined reducers in order and merges their effects.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }

  /// Compiles to what its reducers compile to.
  @inlinable
  public func _compile() -> Reducers._Compiled { reducers._compile() }
}
