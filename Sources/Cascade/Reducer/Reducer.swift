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

/// A reducer's action function in a form whose type says what it is made of. Cascade builds one
/// per store, from the reducer's ``Reducer/body``, when the store is created; you never need to
/// name or write one.
///
/// A composition of concrete reducers (a feature whose body scopes to a feature whose body
/// scopes to another, down to a reducer that implements `reduce(into:action:)`) compiles to a
/// value of one concrete nested type, so the compiler sees the whole tree and runs it as one
/// specialized function, without a call through a function value at each level. The
/// presentation `ifLet` compiles the same way (``_CompiledPresentation``), keeping what it
/// keeps across actions in an object made once. The other operators that keep state of their
/// own across actions (`ifLet`, `forEach`, the stack, `onChange`, `.dependency`) compile to
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

/// A writable key path into state, resolved once to a fixed memory offset when the path is a
/// chain of stored struct properties (the common case), so that composition operators reach
/// child state with pointer arithmetic instead of interpreting the key path on every action.
@usableFromInline
struct _StatePath<Root, Value> {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  @usableFromInline let offset: Int?

  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// Mutates the value in place.
  @inlinable
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    guard let offset else { return body(&root[keyPath: keyPath]) }
    return _modifyStored(at: offset, in: &root, body)
  }

  /// Reads through the value without copying it.
  @inlinable
  func read<Result>(_ root: inout Root, _ body: (Value) -> Result) -> Result {
    guard let offset else { return body(root[keyPath: keyPath]) }
    return _readStored(at: offset, in: &root, body)
  }
}

/// Mutates, in place, the stored property at `offset` in `root` (an offset that
/// `MemoryLayout.offset(of:)` gave, or one proven equivalent: its memory is bound to `Value`
/// while `root`'s is).
@inlinable @inline(__always)
func _modifyStored<Root, Value, Result>(
  at offset: Int, in root: inout Root, _ body: (inout Value) -> Result
) -> Result {
  withUnsafeMutablePointer(to: &root) { pointer in
    let value = (UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self)
    return body(&value.pointee)
  }
}

/// Reads the stored property at `offset` in `root` without copying it (see `_modifyStored`).
@inlinable
func _readStored<Root, Value, Result>(
  at offset: Int, in root: inout Root, _ body: (Value) -> Result
) -> Result {
  withUnsafePointer(to: &root) { pointer in
    body((UnsafeRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self).pointee)
  }
}
