/// The reducer every child operator builds: `ifLet`, `ifCaseLet`, `forEach`, and the
/// presentation `ifLet` and stack `forEach`.
///
/// It holds what every operator is given (the parent, the child, where the child's state and
/// actions are, and where the operator was called) and the operator's adapter over the child
/// engine (`Navigation/Children/ChildEngine.swift`), chosen when the operator is called. You
/// never name it: an operator returns it as `some Reducer`.
public struct _ChildReducer<Parent: Reducer, Child: Reducer, ToChildState, ChildPayload>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: ToChildState
  @usableFromInline let toChildAction: CasePath<Parent.Action, ChildPayload>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  /// Builds the action function: the operator's adapter, run by the engine.
  @usableFromInline let build: (Self) -> _ReduceFunction<Parent.State, Parent.Action>

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: ToChildState,
    toChildAction: CasePath<Parent.Action, ChildPayload>, fileID: StaticString, line: UInt,
    build: @escaping (Self) -> _ReduceFunction<Parent.State, Parent.Action>
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.fileID = fileID
    self.line = line
    self.build = build
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _reduceFunction()(&state, action)
  }

  @inlinable
  public func _reduceFunction() -> _ReduceFunction<Parent.State, Parent.Action> { build(self) }

  /// The engine running `adapter` under the parent's reducer.
  @inlinable
  func _run<Adapter: _ChildAdapter>(_ adapter: Adapter) -> _ReduceFunction<
    Parent.State, Parent.Action
  > where Adapter.ParentState == Parent.State, Adapter.ParentAction == Parent.Action {
    let parent = parent._reduceFunction()
    // Held by a class: captured as a struct, the adapter's references were copied at every
    // action.
    let held = _HeldAdapter(adapter)
    return { state, action in held.adapter.reduce(&state, action, parent: parent) }
  }

  /// The child's identities, positions and warnings, named by the operator's state path.
  @inlinable
  func _lifetime(operator operatorID: _AnyID) -> _ChildLifetime<Child.State> {
    _ChildLifetime(operator: operatorID, fileID: fileID, line: line)
  }
}

extension _ChildReducer: _CompilesToFunction {}

/// A child operator's adapter, held by reference by the operator's action function.
@usableFromInline
final class _HeldAdapter<Adapter: _ChildAdapter> {
  @usableFromInline let adapter: Adapter
  @inlinable init(_ adapter: Adapter) { self.adapter = adapter }
}
