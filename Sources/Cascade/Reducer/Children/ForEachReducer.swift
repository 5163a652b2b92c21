extension Reducer {
  /// Runs an element reducer on the element an ``IdentifiedAction`` names, before this reducer.
  ///
  /// ```swift
  /// struct Todos: Reducer {
  ///   struct State { var todos: IdentifiedArrayOf<Todo.State> = [] }
  ///   enum Action { case addTapped, todos(IdentifiedActionOf<Todo>) }
  ///
  ///   var body: some Reducer<State, Action> {
  ///     Reduce { state, action in
  ///       if case .addTapped = action { state.todos.append(Todo.State(id: state.todos.count)) }
  ///       return .none
  ///     }
  ///     .forEach(\.todos, action: Action.todos) { Todo() }
  ///   }
  /// }
  /// ```
  ///
  /// - The element runs first, then this reducer.
  /// - Each element's effects run under its own navigation position: removing the element
  ///   cancels them, and their cancellation ids never collide with another element's.
  /// - An action for an id that is not in the collection is dropped with a runtime warning
  ///   naming this call's file and line; this reducer still runs.
  /// - Cost per element action is O(1): the element is found by id and mutated in place.
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    forEach(
      toElementsState, action: CasePath(toElementAction, fileID: fileID, line: line),
      element: element,
      fileID: fileID, line: line)
  }

  /// ``forEach(_:action:element:fileID:line:)`` with an explicit action case path.
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    _ChildReducer(
      parent: self, child: element(), toChildState: toElementsState,
      toChildAction: toElementAction, fileID: fileID, line: line, build: _forEachFunction)
  }
}

/// The reducer ``Reducer/forEach(_:action:element:fileID:line:)`` builds.
public typealias _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer> =
  _ChildReducer<
    Parent, Element, WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    IdentifiedAction<ID, Element.Action>
  >

// Inlinable so that an app's rows run specialized to its own state and action types.
@inlinable
func _forEachFunction<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>(
  _ op: _ForEachReducer<Parent, ID, Element>
) -> _ReduceFunction<Parent.State, Parent.Action> {
  op._run(
    _ElementsAdapter(
      lifetime: op._lifetime(operator: _AnyID(keyPath: op.toChildState)),
      path: _StatePath(op.toChildState), element: _LazyReduce(op.child),
      toAction: op.toChildAction))
}

/// `forEach`'s adapter: the children are the elements of an identified collection, each told
/// apart by its id; elements removed by any route take their effects with them.
@usableFromInline
struct _ElementsAdapter<
  ParentState, ParentAction, ID: Hashable & Sendable, ElementState, ElementAction
>:
  _ChildAdapter
{
  // The path's parts, not the path: reading them from a stored path copied its three
  // references at every action.
  @usableFromInline let extract: @Sendable (ParentAction) -> IdentifiedAction<ID, ElementAction>?
  @usableFromInline let constructor: _ConstructorExtraction
  @usableFromInline let embed: @Sendable (IdentifiedAction<ID, ElementAction>) -> ParentAction
  @usableFromInline let lifetime: _ChildLifetime<ElementState>
  @usableFromInline let path: _StatePath<ParentState, IdentifiedArray<ID, ElementState>>
  @usableFromInline let element: _LazyReduce<ElementState, ElementAction>
  @usableFromInline let live = _LiveElements<ID>()

  @inlinable
  init(
    lifetime: _ChildLifetime<ElementState>,
    path: _StatePath<ParentState, IdentifiedArray<ID, ElementState>>,
    element: _LazyReduce<ElementState, ElementAction>,
    toAction: CasePath<ParentAction, IdentifiedAction<ID, ElementAction>>
  ) {
    self.lifetime = lifetime
    self.path = path
    self.element = element
    self.extract = toAction._extract
    self.constructor = toAction._constructor
    self.embed = toAction._embed
  }

  @inlinable @inline(__always)
  func command(_ action: ParentAction) -> _ChildCommand<ID, ElementAction, ElementState>? {
    guard
      case let .element(id, elementAction)? = _extractPayload(
        action, constructor, extract)
    else { return nil }
    return .child(id, elementAction)
  }

  @inlinable @inline(__always)
  func before(_ state: inout ParentState) {
    live.prepare { path.read(&state) { $0._stamp } }
  }

  @inlinable
  func runChild(
    _ state: inout ParentState, _ id: ID, _ action: ElementAction, before: Void
  ) -> Effect<ParentAction>? {
    let effect = path.modify(&state) { elements -> Effect<ElementAction>? in
      guard let position = elements.index(id: id) else { return nil }
      return elements._modifyElement(at: position) { element(&$0, action) }
    }
    guard let effect else { return nil }
    if effect.isNone { return Effect.none }
    let embed = embed
    return effect.map { embed(.element(id: id, action: $0)) }
      ._navigation(lifetime.position(element: id))
  }

  @inlinable @inline(__always)
  func ended(_ state: inout ParentState, before: Void) -> Effect<ParentAction> {
    let gone = live.gone(
      stamp: path.read(&state) { $0._stamp },
      lastChange: { path.read(&state) { $0._log.entries.last } },
      { path.read(&state) { .init($0) } })
    return gone.isEmpty ? .none : lifetime.end(gone)
  }

  @inlinable
  func stale(_: _ChildCommandKind, _ id: ID, in _: ParentState) -> _StaleAction {
    .missingElement(id: "\(id)")
  }
}
