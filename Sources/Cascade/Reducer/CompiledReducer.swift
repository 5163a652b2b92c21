/// A reducer's action function in a form whose type says what it is made of. Cascade builds one
/// per store, from the reducer's ``Reducer/body``, when the store is created; you never need to
/// name or write one.
///
/// A composition of concrete reducers (a feature whose body scopes to a feature whose body
/// scopes to another, down to a reducer that implements `reduce(into:action:)`) compiles to a
/// value of one concrete nested type, so the compiler sees the whole tree and runs it as one
/// specialized function, without a call through a function value at each level. Operators that
/// keep state of their own across actions (navigation, `onChange`, `.dependency`) compile to
/// their action function, ``_ClosureReducer``.
///
/// ```swift
/// // Scope(state: \.child, action: Action.child) { Counter() } compiles to
/// // _CompiledScope<State, Action, _LeafReducer<Counter>>
/// ```
public protocol _CompiledReducer<State, Action> {
  /// The state the compiled reducer changes.
  associatedtype State
  /// The actions it handles.
  associatedtype Action

  /// Changes `state` for `action` and returns the effects to run.
  func _reduce(into state: inout State, action: Action) -> Effect<Action>
}

/// A reducer that implements ``Reducer/reduce(into:action:)``, called directly.
public struct _LeafReducer<Base: Reducer>: _CompiledReducer {
  @usableFromInline let base: Base

  @inlinable
  init(_ base: Base) { self.base = base }

  @inlinable
  public func _reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    base.reduce(into: &state, action: action)
  }
}

/// A reducer compiled to its action function: operators whose function carries state built
/// once (a child's lifetime, a cached dependency value) or chosen at run time.
public struct _ClosureReducer<State, Action>: _CompiledReducer {
  @usableFromInline let function: _ReduceFunction<State, Action>

  @inlinable
  public init(_ function: @escaping _ReduceFunction<State, Action>) { self.function = function }

  @inlinable
  public func _reduce(into state: inout State, action: Action) -> Effect<Action> {
    function(&state, action)
  }
}

/// A reducer that compiles to its action function (see ``_ClosureReducer``): an operator whose
/// function keeps state across actions (a child's lifetime, a cached dependency value), or
/// whose shape is chosen at run time (an `if` in a builder, a `for` loop). Cascade's operators
/// conform; you never need to.
///
/// ```swift
/// // Reduce { ... }.ifLet(\.child, action: Action.child) { Child() } compiles to
/// // _ClosureReducer<State, Action>, holding the function `_reduceFunction()` built.
/// ```
public protocol _CompilesToFunction: Reducer {}

extension _CompilesToFunction {
  /// Compiles to its action function, built once.
  @inlinable
  public func _compile() -> _ClosureReducer<State, Action> { _ClosureReducer(_reduceFunction()) }
}

/// Two compiled reducers run one after the other, their effects merged: a builder's lines.
public struct _CompiledSequence<First: _CompiledReducer, Second: _CompiledReducer>:
  _CompiledReducer
where First.State == Second.State, First.Action == Second.Action {
  @usableFromInline let first: First
  @usableFromInline let second: Second

  @inlinable
  init(first: First, second: Second) {
    self.first = first
    self.second = second
  }

  @inlinable
  public func _reduce(
    into state: inout First.State, action: First.Action
  ) -> Effect<First.Action> {
    first._reduce(into: &state, action: action)
      .merge(with: second._reduce(into: &state, action: action))
  }
}
