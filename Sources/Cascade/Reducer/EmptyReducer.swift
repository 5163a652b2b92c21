/// A reducer that changes nothing and starts nothing: a placeholder, or an empty `body`.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   EmptyReducer()
/// }
/// ```
public struct EmptyReducer<State, Action>: Reducer {
  /// Creates a reducer that does nothing.
  public init() {}

  /// Leaves `state` as it is and returns `.none`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }

  public func _reduceFunction() -> _ReduceFunction<State, Action> { { _, _ in .none } }
}
