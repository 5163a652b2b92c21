/// A feature's logic: how each action changes its state and which effects it starts.
///
/// Write a reducer as a type with `State` and `Action`, then either implement
/// ``reduce(into:action:)`` or compose other reducers in ``body``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementTapped, decrementTapped }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .incrementTapped: state.count += 1
///     case .decrementTapped: state.count -= 1
///     }
///     return .none
///   }
/// }
///
/// struct App: Reducer {
///   struct State { var counter = Counter.State(); var log: [String] = [] }
///   enum Action { case counter(Counter.Action) }
///
///   var body: some Reducer<State, Action> {
///     Scope(state: \.counter, action: Action.counter) { Counter() }
///     Reduce { state, action in
///       state.log.append("\(action)")
///       return .none
///     }
///   }
/// }
/// ```
///
/// A store builds a reducer's `body` once, when the store is created, so composition costs
/// nothing per action. Keep `body` free of side effects: it may be built more than once.
public protocol Reducer<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action
  /// The type of ``body``, or `Never` for a reducer that implements ``reduce(into:action:)``.
  associatedtype Body

  /// Changes `state` for `action` and returns the effects to run.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this reducer is made of, run in order for each action.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// Builds this reducer's action function once. Cascade implements this; you never need to.
  func _reduceFunction() -> _ReduceFunction<State, Action>

  /// The compiled form of this reducer (see ``_CompiledReducer``). Cascade implements this;
  /// you never need to.
  associatedtype _Compiled: _CompiledReducer<State, Action>

  /// Builds this reducer's compiled form once. Cascade implements this; you never need to.
  func _compile() -> _Compiled
}

/// A reducer's action function, built once by ``Reducer/_reduceFunction()``.
public typealias _ReduceFunction<State, Action> = (inout State, Action) -> Effect<Action>

/// A reducer built from a feature type: `ReducerOf<Feature>` is any reducer over its state and
/// actions.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body.
  public var body: Body {
    fatalError(
      """
      '\(Self.self)' has no body: it implements 'reduce(into:action:)'. Nothing in Cascade \
      reads this property for such a reducer; do not call it directly.
      """)
  }
}

extension Reducer {
  /// The compiled form, as a function: built here, in code specialized with the reducer's
  /// type, so the function runs the whole compiled tree specialized.
  @inlinable
  public func _reduceFunction() -> _ReduceFunction<State, Action> {
    let compiled = _compile()
    return { state, action in compiled._reduce(into: &state, action: action) }
  }
}

extension Reducer {
  /// A reducer that implements `reduce(into:action:)` is called directly. (Unconstrained, so
  /// that a reducer with a body has one more specific witness, below, and the compiled type is
  /// inferred without ambiguity.)
  @inlinable
  public func _compile() -> _LeafReducer<Self> { _LeafReducer(self) }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``. Calling this builds the body each time; a store builds it only once.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }

  /// A reducer with a body compiles to what its body compiles to.
  @inlinable
  public func _compile() -> Body._Compiled { body._compile() }
}
