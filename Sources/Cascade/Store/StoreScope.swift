extension Store {
  /// A store for part of this store's state: reads go through `state`, actions are embedded
  /// with `action` and sent here.
  ///
  /// ```swift
  /// let profileStore = appStore.scope(state: \.profile, action: App.Action.profile)
  /// profileStore.send(.nameChanged("Ada"))   // sent as .profile(.nameChanged("Ada"))
  /// ```
  ///
  /// Child stores are cached: scoping with the same state key path and action type returns the
  /// same store while it is alive. Scope one state key path with one action case.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let id = _ScopeID(state: toChildState, action: ObjectIdentifier(ChildAction.self), element: nil)
    return cachedChild(id) {
      Store<ChildState, ChildAction>(
        core: core,
        projection: projection.appending(toChildState),
        parent: self,
        send: embedding(toChildAction))
    }
  }

  /// A store for optional child state, or `nil` while the child state is `nil`.
  ///
  /// ```swift
  /// if let editorStore = store.scope(state: \.editor, action: Parent.Action.editor) {
  ///   editorStore.send(.saveTapped)
  /// }
  /// ```
  ///
  /// A child store kept after its state became `nil` keeps reading the last value; actions sent
  /// to it reach the parent, whose `ifLet` reports them as sent to an absent child.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    let optional = projection.appending(toChildState)
    guard let initial = optional.get() else { return nil }
    let id = _ScopeID(state: toChildState, action: ObjectIdentifier(ChildAction.self), element: nil)
    return cachedChild(id) {
      let projection = _LastValueProjection(initial: initial, fetch: optional.get)
      core.subscribe(projection)
      return Store<ChildState, ChildAction>(
        core: core, projection: projection, parent: self, send: embedding(toChildAction))
    }
  }

  /// A store for each element of an identified collection, in order.
  ///
  /// ```swift
  /// for rowStore in store.scope(state: \.rows, action: Todos.Action.rows) {
  ///   print(rowStore.title)
  /// }
  /// ```
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action
  ) -> [Store<ElementState, ElementAction>] {
    let elements = projection.appending(toElements)
    return elements.get().ids.compactMap { id in
      scope(elements, toElements, id: id, action: toElementAction)
    }
  }

  /// A store for the element with `id`, or `nil` if there is none.
  ///
  /// ```swift
  /// store.scope(state: \.rows, action: Todos.Action.rows, id: 3)?.send(.toggleTapped)
  /// ```
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action,
    id: ID
  ) -> Store<ElementState, ElementAction>? {
    scope(projection.appending(toElements), toElements, id: id, action: toElementAction)
  }

  private func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    _ elements: _Projection<IdentifiedArray<ID, ElementState>>,
    _ toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    id: ID,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action
  ) -> Store<ElementState, ElementAction>? {
    guard let initial = elements.get()[id: id] else { return nil }
    let scopeID = _ScopeID(
      state: toElements, action: ObjectIdentifier(ElementAction.self), element: AnyHashable(id))
    return cachedChild(scopeID) {
      let projection = _LastValueProjection(initial: initial) { elements.get()[id: id] }
      core.subscribe(projection)
      return Store<ElementState, ElementAction>(
        core: core, projection: projection, parent: self,
        send: embedding { toElementAction(.element(id: id, action: $0)) })
    }
  }

  private func embedding<ChildAction>(
    _ toAction: @escaping @Sendable (ChildAction) -> Action
  ) -> @MainActor (ChildAction, _Origin) -> _Cascade? {
    let send = sendAction
    return { action, origin in send(toAction(action), origin) }
  }
}
