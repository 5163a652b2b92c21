/// A child's action function, built the first time the child gets an action.
///
/// The child operators build their child this way so that a feature can contain itself (a
/// node presenting a node, rows holding rows): building the whole tree up front would never
/// end. The cost per action is one check that the function is built.
@usableFromInline
final class _LazyReduce<State, Action> {
  @usableFromInline var function: _ReduceFunction<State, Action>?
  @usableFromInline let make: () -> _ReduceFunction<State, Action>

  @usableFromInline
  init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.make = { reducer._reduceFunction() }
  }

  @inlinable
  func callAsFunction(_ state: inout State, _ action: Action) -> Effect<Action> {
    if let function { return function(&state, action) }
    let built = make()
    function = built
    return built(&state, action)
  }
}
