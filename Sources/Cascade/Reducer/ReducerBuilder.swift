/// Builds a reducer from the reducers listed in a ``Reducer/body``, run top to bottom for each
/// action; `if`, `if`/`else`, `switch` and `for` work as in a SwiftUI view body.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.settings, action: Action.settings) { Settings() }
///   if isLoggingEnabled {
///     Logger()
///   }
///   Reduce { state, action in .none }
/// }
/// ```
@resultBuilder
public enum ReducerBuilder<State, Action> {
  /// A reducer on a line of its own.
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action { reducer }

  /// A reducer whose type is erased to `any Reducer`, on a line of its own: run through its
  /// action function, built once with the rest of the body.
  ///
  /// ```swift
  /// let logging: any Reducer<State, Action> = verbose ? VerboseLogger() : QuietLogger()
  ///
  /// var body: some Reducer<State, Action> {
  ///   logging
  ///   Core()
  /// }
  /// ```
  @_disfavoredOverload
  public static func buildExpression(_ reducer: any Reducer<State, Action>) -> Reduce<State, Action>
  {
    Reduce(reducer)
  }

  /// An empty body: an ``EmptyReducer``.
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  /// The first reducer of a body.
  public static func buildPartialBlock<R: Reducer>(first: R) -> R
  where R.State == State, R.Action == Action { first }

  /// The reducers so far, then the next line's: each action runs both, in order, and their
  /// effects are merged.
  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: R0, next: R1
  ) -> _SequenceReducer<R0, R1> { _SequenceReducer(first: accumulated, second: next) }

  /// An `if` without `else`: its reducer runs only if the condition held when the body was
  /// built.
  public static func buildOptional<R: Reducer>(_ reducer: R?) -> R?
  where R.State == State, R.Action == Action { reducer }

  /// The first branch of an `if`/`else` or a `switch`.
  public static func buildEither<First: Reducer, Second: Reducer>(
    first reducer: First
  ) -> _ConditionalReducer<First, Second> { .first(reducer) }

  /// The second branch of an `if`/`else` or a `switch`.
  public static func buildEither<First: Reducer, Second: Reducer>(
    second reducer: Second
  ) -> _ConditionalReducer<First, Second> { .second(reducer) }

  /// A `for` loop: the reducers of every iteration, run in order.
  public static func buildArray<R: Reducer>(_ reducers: [R]) -> _ArrayReducer<R>
  where R.State == State, R.Action == Action { _ArrayReducer(reducers: reducers) }

  /// An `if #available` block: its reducer with the type erased, so that the body's type does
  /// not name a type that is unavailable elsewhere.
  public static func buildLimitedAvailability<R: Reducer>(_ reducer: R) -> Reduce<State, Action>
  where R.State == State, R.Action == Action { Reduce(reducer) }

  /// The finished body, as it is.
  public static func buildFinalResult<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action { reducer }
}

/// Two reducers run one after the other; built by ``ReducerBuilder``.
public struct _SequenceReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  @usableFromInline let first: First
  @usableFromInline let second: Second

  @inlinable
  init(first: First, second: Second) {
    self.first = first
    self.second = second
  }

  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    first.reduce(into: &state, action: action)
      .merge(with: second.reduce(into: &state, action: action))
  }

  /// Compiles to both lines' compiled forms, run in order in one specialized function.
  @inlinable
  public func _compile() -> _CompiledSequence<First._Compiled, Second._Compiled> {
    _CompiledSequence(first: first._compile(), second: second._compile())
  }
}

/// One of two reducers, chosen by an `if`/`else` or `switch` in a builder.
public enum _ConditionalReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  case first(First)
  case second(Second)

  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case let .first(reducer): reducer.reduce(into: &state, action: action)
    case let .second(reducer): reducer.reduce(into: &state, action: action)
    }
  }

  public func _reduceFunction() -> _ReduceFunction<First.State, First.Action> {
    switch self {
    case let .first(reducer): reducer._reduceFunction()
    case let .second(reducer): reducer._reduceFunction()
    }
  }
}

/// Reducers built by a `for` loop in a builder, run in order.
public struct _ArrayReducer<Element: Reducer>: Reducer {
  let reducers: [Element]

  public func reduce(
    into state: inout Element.State, action: Element.Action
  ) -> Effect<Element.Action> {
    .merge(reducers.map { $0.reduce(into: &state, action: action) })
  }

  public func _reduceFunction() -> _ReduceFunction<Element.State, Element.Action> {
    let functions = reducers.map { $0._reduceFunction() }
    return { state, action in .merge(functions.map { $0(&state, action) }) }
  }
}

/// An optional reducer (from an `if` without `else`) does nothing when absent.
extension Optional: Reducer where Wrapped: Reducer {
  public func reduce(
    into state: inout Wrapped.State, action: Wrapped.Action
  ) -> Effect<Wrapped.Action> {
    self?.reduce(into: &state, action: action) ?? .none
  }

  public func _reduceFunction() -> _ReduceFunction<Wrapped.State, Wrapped.Action> {
    self?._reduceFunction() ?? { _, _ in .none }
  }
}

extension _ConditionalReducer: _CompilesToFunction {}

extension _ArrayReducer: _CompilesToFunction {}

extension Optional: _CompilesToFunction where Wrapped: Reducer {}
