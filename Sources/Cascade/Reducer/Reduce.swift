/// A reducer written as a closure: the everyday way to give a feature its logic inside a
/// ``Reducer/body``.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Reduce { state, action in
///     switch action {
///     case .incrementTapped:
///       state.count += 1
///       return .none
///     case .factTapped:
///       return .run { [count = state.count] send in
///         await send(.factResponse(try await numberFact.fetch(count)))
///       }
///     case let .factResponse(fact):
///       state.fact = fact
///       return .none
///     }
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline let function: _ReduceFunction<State, Action>

  /// Creates a reducer from a closure.
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.function = reduce
  }

  /// Erases another reducer's type.
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.function = reducer._reduceFunction()
  }

  /// Runs the closure.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    function(&state, action)
  }

  public func _reduceFunction() -> _ReduceFunction<State, Action> { function }
}
