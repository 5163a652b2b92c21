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
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    _ForEachReducer(
      parent: self, element: element(), toElementsState: toElementsState,
      toElementAction: toElementAction, fileID: fileID, line: line)
  }
}

/// The reducer ``Reducer/forEach(_:action:element:fileID:line:)`` builds.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  let toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _reduceFunction()(&state, action)
  }

  public func _reduceFunction() -> _ReduceFunction<Parent.State, Parent.Action> {
    let parent = parent._reduceFunction()
    let element = _LazyReduce(element)
    let path = _StatePath(toElementsState)
    let extract = toElementAction._extract
    let embed = toElementAction._embed
    let lifetime = _ChildLifetime<Element.State>(
      operator: _AnyID(keyPath: toElementsState), fileID: fileID, line: line)
    let live = _LiveElements<ID>()
    return { state, action in
      live.prepare { path.read(&state) { .init($0) } }
      var elementEffect = Effect<Parent.Action>.none
      if case let .element(id, elementAction)? = extract(action) {
        let effect = path.modify(&state) { elements -> Effect<Element.Action>? in
          guard let position = elements.index(id: id) else { return nil }
          return elements._modifyElement(at: position) { element(&$0, elementAction) }
        }
        if let effect {
          if !effect.isNone {
            elementEffect = effect.map { embed(.element(id: id, action: $0)) }
              ._navigation(lifetime.position(element: id))
          }
        } else {
          lifetime.reportStale(.missingElement(id: "\(id)"), action: action)
        }
      }
      let parentEffect = parent(&state, action)
      let effect = elementEffect.merge(with: parentEffect)
      // Elements that were removed, by any route, take their effects with them.
      let gone = live.gone(
        stamp: path.read(&state) { $0._stamp },
        lastChange: { path.read(&state) { $0._log.entries.last } },
        { path.read(&state) { .init($0) } })
      guard !gone.isEmpty else { return effect }
      return effect.merge(with: lifetime.end(elements: gone))
    }
  }
}

extension _ForEachReducer: _CompilesToFunction {}
