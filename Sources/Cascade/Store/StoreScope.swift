extension Store {
  /// A store for part of this store's state: reads go through `state`, actions are embedded
  /// with `action` and sent here.
  ///
  /// ```swift
  /// let profileStore = appStore.scope(state: \.profile, action: App.Action.profile)
  /// profileStore.send(.nameChanged("Ada"))   // sent as .profile(.nameChanged("Ada"))
  /// ```
  ///
  /// Child stores are cached: scoping with the same state key path and the same action case,
  /// from the same place, returns the same store while it is alive. Scoping through another
  /// action case gives another store, whose actions go to that case.
  @_disfavoredOverload  // optional, collection, stack and presentation state have their own
  @inlinable  // specialized in the caller's module, the child's send embeds without metadata
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let id = _ScopeID(state: toChildState, action: _EmbeddingID(toChildAction), element: nil)
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
    return disappearingChild(
      _ScopeID(state: toChildState, action: _EmbeddingID(toChildAction), element: nil),
      fetch: optional.get,
      write: { body in optional.update { if $0 != nil { body(&$0!) } } },
      send: toChildAction)
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
    disappearingChild(
      _ScopeID(
        state: toElements, action: _EmbeddingID(toElementAction), element: AnyHashable(id)),
      fetch: { elements.get()[id: id] },
      write: { body in elements.update { $0._modifyElementUnlogged(id: id, body) } },
      watch: {
        let group = elementGroup(
          toElements,
          read: {
            let collection = elements.get()
            return (collection._stamp, collection._log, collection._logsElementChanges)
          },
          startLogging: { elements.update { $0._startLoggingElementChanges() } })
        let watch = _ElementWatch(runner: core.runner)
        return (watch: watch, listening: group.link(watch, id: id))
      },
      send: { toElementAction(.element(id: id, action: $0)) })
  }

  /// A store for the screens of a navigation stack, bottom first.
  ///
  /// ```swift
  /// for screen in store.scope(state: \.path, action: Root.Action.path) {
  ///   print(screen.state)
  /// }
  /// ```
  public func scope<ElementState, ElementAction>(
    state toStack: KeyPath<State, StackState<ElementState>>,
    action toStackAction: @escaping @Sendable (StackAction<ElementState, ElementAction>) -> Action
  ) -> [Store<ElementState, ElementAction>] {
    projection.appending(toStack).get().ids.compactMap { id in
      scope(state: toStack, action: toStackAction, id: id)
    }
  }

  /// A store for the screen with `id`, or `nil` if it is not on the stack.
  public func scope<ElementState, ElementAction>(
    state toStack: KeyPath<State, StackState<ElementState>>,
    action toStackAction: @escaping @Sendable (StackAction<ElementState, ElementAction>) -> Action,
    id: StackElementID
  ) -> Store<ElementState, ElementAction>? {
    let stack = projection.appending(toStack)
    return disappearingChild(
      _ScopeID(state: toStack, action: _EmbeddingID(toStackAction), element: id),
      fetch: { stack.get()[id: id] },
      write: { body in
        stack.update { $0._entries._modifyElementUnlogged(id: id) { body(&$0.element) } }
      },
      watch: {
        let group = elementGroup(
          toStack,
          read: {
            let entries = stack.get()._entries
            return (entries._stamp, entries._log, entries._logsElementChanges)
          },
          startLogging: { stack.update { $0._startLoggingElementChanges() } })
        let watch = _ElementWatch(runner: core.runner)
        return (watch: watch, listening: group.link(watch, id: id))
      },
      send: { toStackAction(.element(id: id, action: $0)) })
  }

  /// A store for the presented child, or `nil` while nothing is presented. Its actions are
  /// sent as `.presented(...)`; each presented child identity (its `id`, or its enum case) gets
  /// a store of its own.
  ///
  /// ```swift
  /// store.scope(state: \.$detail, action: Feature.Action.detail)?.send(.saveTapped)
  /// ```
  public func scope<ChildState, ChildAction>(
    state toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<ChildAction>) -> Action
  ) -> Store<ChildState, ChildAction>? {
    let presentation = projection.appending(toPresentation)
    let id = presentation.get().wrappedValue.map(_ChildLifetime<ChildState>.scoping.identity(of:))
    return disappearingChild(
      _ScopeID(
        state: toPresentation, action: _EmbeddingID(toPresentationAction), element: id),
      fetch: { presentation.get().wrappedValue },
      send: { toPresentationAction(.presented($0)) })
  }

  /// A cached child store for state that can go away (an element, a screen, a presentation);
  /// `nil` when it is absent now.
  private func disappearingChild<ChildState, ChildAction>(
    _ id: _ScopeID,
    fetch: @escaping @MainActor () -> ChildState?,
    write: (@MainActor ((inout ChildState) -> Void) -> Bool)? = nil,
    watch: () -> (watch: _ElementWatch, listening: _RowListening)? = { nil },
    send toAction: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = fetch() else { return nil }
    return cachedChild(id) {
      let projection = _LastValueProjection(initial: initial, fetch: fetch, write: write)
      // A row's store is observed through its row's watch; any other through its parent's.
      let row = watch()
      projection.listening = row?.listening
      return Store<ChildState, ChildAction>(
        core: row?.watch ?? core, projection: projection, parent: self, send: embedding(toAction))
    }
  }

  /// The watched rows of the collection at `keyPath`, which `read` reads and `startLogging`
  /// makes log its elements' changes: one per collection.
  private func elementGroup<ID: Hashable>(
    _ keyPath: AnyKeyPath,
    read: @escaping @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>, logs: Bool),
    startLogging: @escaping @MainActor () -> Bool
  ) -> _ElementGroup<ID> {
    if let known = elementGroups[keyPath] as? _ElementGroup<ID> { return known }
    // Rows of a row's store are looked at only when the row changed: the row is listened to.
    projection.startListening()
    let group = _ElementGroup(core: core, read: read, startLogging: startLogging)
    elementGroups[keyPath] = group
    return group
  }

  /// The child store's send: the child's action embedded, then sent as the parent's.
  /// Inlinable so that it is specialized with the feature's action types: in generic code, every
  /// value it passes on is copied and destroyed through its type's metadata.
  @inlinable
  func embedding<ChildAction>(
    _ toAction: @escaping @Sendable (ChildAction) -> Action
  ) -> @MainActor (ChildAction, _Origin) -> _Cascade? {
    let send = sendAction
    return { action, origin in send(toAction(action), origin) }
  }
}
