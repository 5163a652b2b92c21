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
      watch: rowWatch(
        toElements, id: id,
        read: {
          let collection = elements.get()
          return (collection._stamp, collection._log, collection._logsElementChanges)
        },
        startLogging: { elements.update { $0._startLoggingElementChanges() } }
      ),
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
      watch: rowWatch(
        toStack, id: id,
        read: {
          let entries = stack.get()._entries
          return (entries._stamp, entries._log, entries._logsElementChanges)
        },
        startLogging: { stack.update { $0._startLoggingElementChanges() } }
      ),
      send: { toStackAction(.element(id: id, action: $0)) })
  }

  /// A store for the presented child, or `nil` while nothing is presented. Its actions are
  /// sent as `.presented(...)`; each presented child identity (its `id`, or its enum case) gets
  /// a store of its own.
  ///
  /// ```swift
  /// store.scope(state: \.$detail, action: Feature.Action.detail)?.send(.saveTapped)
  /// ```
  ///
  /// A store kept after its child was dismissed keeps reading the last value it read itself
  /// (or that its own last send left), even when the stores it was scoped from are gone too.
  @inlinable  // specialized in the caller's module: the child's send and its state's read run
  // without the runtime's generic metadata lookups, at every level of a nested presentation
  public func scope<ChildState, ChildAction>(
    state toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<ChildAction>) -> Action
  ) -> Store<ChildState, ChildAction>? {
    let presentation = projection.appending(toPresentation)
    let parent = projection
    return _presentedChild(
      toPresentation, action: _EmbeddingID(toPresentationAction),
      initial: presentation.get().wrappedValue,
      make: {
        // Made once per child store, when the store is made. The parents are read without
        // keeping what they read (`withCurrent`): kept, every level of a nested presentation
        // shared its presented state's storage with the live state, which the next send then
        // copied. A store below this one reads through it with `visit`, which hands the child
        // on in place: returned instead, it was copied at every level on its way down (S3pl:
        // 141 -> 128 ns a level).
        let current: @MainActor () -> ChildState?
        let visit: @MainActor ((inout ChildState) -> Void) -> Bool
        if let writable = toPresentation as? WritableKeyPath<State, PresentationState<ChildState>> {
          // Read in place at the wrapper's offset, found once (`_PresentationPath`): through
          // the key path, every read interpreted `\.$child`, a computed property.
          let path = _PresentationPath(writable)
          current = {
            var child: ChildState?
            _ = parent.withCurrent { state in child = path.read(&state) { $0.wrappedValue } }
            return child
          }
          visit = { body in
            var found = false
            _ = parent.withCurrent { state in
              path.read(&state) { presentation in
                guard var child = presentation.wrappedValue else { return }
                found = true
                body(&child)
              }
            }
            return found
          }
        } else {
          current = {
            var child: ChildState?
            _ = presentation.withCurrent { child = $0.wrappedValue }
            return child
          }
          visit = { body in
            var found = false
            _ = presentation.withCurrent { presentation in
              guard var child = presentation.wrappedValue else { return }
              found = true
              body(&child)
            }
            return found
          }
        }
        // The store's own read (after its sends, and of `state`) writes into what it keeps:
        // a value returned, which measured faster there than a value handed on (`visit`) by
        // 13 ns a send one level down.
        let read: @MainActor (inout ChildState) -> Bool = { child in
          guard let value = current() else { return false }
          child = value
          return true
        }
        return (read, visit, self.embedding { toPresentationAction(.presented($0)) })
      })
  }

  /// The presentation scope's store for the presented child, `initial`, if any; `make` makes
  /// a new store's read and send.
  @usableFromInline
  func _presentedChild<ChildState, ChildAction>(
    _ toPresentation: AnyKeyPath, action: _EmbeddingID, initial: ChildState?,
    make: () -> (
      read: @MainActor (inout ChildState) -> Bool,
      visit: @MainActor ((inout ChildState) -> Void) -> Bool,
      send: @MainActor (ChildAction, _Origin) -> _Cascade?
    )
  ) -> Store<ChildState, ChildAction>? {
    guard let initial else { return nil }
    let id = _ChildLifetime<ChildState>.scoping.identity(of: initial)
    return disappearingChild(
      _ScopeID(state: toPresentation, action: action, element: id), initial: initial, make: make)
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
    return disappearingChild(
      id, initial: initial, write: write, watch: watch,
      make: {
        let read: @MainActor (inout ChildState) -> Bool = { value in
          guard let fetched = fetch() else { return false }
          value = fetched
          return true
        }
        let visit: @MainActor ((inout ChildState) -> Void) -> Bool = { body in
          guard var fetched = fetch() else { return false }
          body(&fetched)
          return true
        }
        return (read, visit, embedding(toAction))
      })
  }

  /// ``disappearingChild(_:fetch:write:watch:send:)`` for a child whose state is `initial`
  /// now; `make` makes a new store's read (which writes the value it reads, or says the state
  /// is gone) and its send (already embedded), only when the store is not cached.
  private func disappearingChild<ChildState, ChildAction>(
    _ id: _ScopeID,
    initial: ChildState,
    write: (@MainActor ((inout ChildState) -> Void) -> Bool)? = nil,
    watch: () -> (watch: _ElementWatch, listening: _RowListening)? = { nil },
    make: () -> (
      read: @MainActor (inout ChildState) -> Bool,
      visit: @MainActor ((inout ChildState) -> Void) -> Bool,
      send: @MainActor (ChildAction, _Origin) -> _Cascade?
    )
  ) -> Store<ChildState, ChildAction>? {
    cachedChild(id) {
      let (read, visit, send) = make()
      let projection = _LastValueProjection(
        initial: initial, read: read, visit: visit, write: write)
      // A row's store is observed through its row's watch; any other through its parent's.
      let row = watch()
      projection.listening = row?.listening
      return Store<ChildState, ChildAction>(
        core: row?.watch ?? core, projection: projection, parent: self, send: send)
    }
  }

  /// The set-up of a row's store (an element's, a screen's): a watch of its own, linked to the
  /// watched rows of the collection at `keyPath` (which `read` reads and `startLogging` makes
  /// log its elements' changes), so that the row's store is told only when its row changed.
  private func rowWatch<ID: Hashable>(
    _ keyPath: AnyKeyPath, id: ID,
    read: @escaping @MainActor () -> (stamp: UInt64, log: _StructureLog<ID>, logs: Bool),
    startLogging: @escaping @MainActor () -> Bool
  ) -> () -> (watch: _ElementWatch, listening: _RowListening) {
    {
      let group = self.elementGroup(keyPath, read: read, startLogging: startLogging)
      let watch = _ElementWatch(runner: self.core.runner)
      return (watch: watch, listening: group.link(watch, id: id))
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

/// How a store reads its state from the root's: scoped stores hold no state of their own.
@usableFromInline
@MainActor
class _Projection<Value> {
  /// The value's fixed address, when it has one (a chain of stored properties from the root's
  /// storage): the store reads it there directly. Valid while the projection lives.
  @usableFromInline final let address: UnsafeMutableRawPointer?

  /// Whether the value is read again after a send through this store (`refresh()`).
  @usableFromInline final let refreshesOnSend: Bool

  @usableFromInline init(address: UnsafeMutableRawPointer? = nil, refreshesOnSend: Bool = false) {
    self.address = address
    self.refreshesOnSend = refreshesOnSend
  }

  /// Reads the value again, for a value that keeps what it last read (see `refreshesOnSend`).
  @usableFromInline func refresh() {}

  /// Someone listens to the store this projection reads for (a subscriber, or the rows of its
  /// own collections): a row's store tells its collection's group (`ElementObservation.swift`).
  func startListening() {}

  @usableFromInline func get() -> Value { fatalError("_Projection is abstract") }

  /// Changes the value in the root's state with `body`, outside any action, and says whether
  /// it could (a read-only key path cannot be written through). Only for a change that is not
  /// the state's content: a row store's group turning on its collection's log of element
  /// changes (`ElementObservation.swift`).
  func update(_ body: (inout Value) -> Void) -> Bool { false }

  /// Runs `body` on the value as it is now and says whether there is one: `false`, without
  /// running `body`, when the state is gone. Unlike ``get()``, a projection that keeps the
  /// last value it read does not keep this one: a child store reads through its parents this
  /// way, so that they do not hold on to storage the live state shares.
  @usableFromInline func withCurrent(_ body: (inout Value) -> Void) -> Bool {
    var value = get()
    body(&value)
    return true
  }

  /// A projection one key path further down.
  @usableFromInline
  func appending<Child>(_ keyPath: KeyPath<Value, Child>) -> _Projection<Child> {
    _MappedProjection(base: self, keyPath: keyPath)
  }
}

/// Reads root state through one key path composed from the root, at a fixed memory offset
/// when the path is made of stored properties: a pointer read however deep the scoping goes.
@usableFromInline
@MainActor
final class _PathProjection<Root, Value>: _Projection<Value> {
  let box: _StateBox<Root>
  let keyPath: KeyPath<Root, Value>

  @usableFromInline init(box: _StateBox<Root>, keyPath: KeyPath<Root, Value>) {
    self.box = box
    self.keyPath = keyPath
    let offset = MemoryLayout<Root>.offset(of: keyPath)
    // The root's storage never moves while the box lives, and this projection keeps it alive.
    super.init(address: offset.map { UnsafeMutableRawPointer(box.storage) + $0 })
  }

  @usableFromInline override func get() -> Value {
    // The offset of a stored property: its memory is bound to `Value` while the root's is.
    guard let address else { return box.state[keyPath: keyPath] }
    return address.assumingMemoryBound(to: Value.self).pointee
  }

  override func update(_ body: (inout Value) -> Void) -> Bool {
    if let address {
      body(&address.assumingMemoryBound(to: Value.self).pointee)
      return true
    }
    guard let writable = keyPath as? WritableKeyPath<Root, Value> else { return false }
    body(&box.state[keyPath: writable])
    return true
  }

  override func appending<Child>(_ keyPath: KeyPath<Value, Child>) -> _Projection<Child> {
    _PathProjection<Root, Child>(box: box, keyPath: self.keyPath.appending(path: keyPath))
  }
}

/// Reads through another projection, then a key path.
@MainActor
final class _MappedProjection<Base, Value>: _Projection<Value> {
  let base: _Projection<Base>
  let keyPath: KeyPath<Base, Value>

  init(base: _Projection<Base>, keyPath: KeyPath<Base, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  override func get() -> Value { base.get()[keyPath: keyPath] }

  override func withCurrent(_ body: (inout Value) -> Void) -> Bool {
    base.withCurrent { base in
      var value = base[keyPath: keyPath]
      body(&value)
    }
  }

  override func update(_ body: (inout Value) -> Void) -> Bool {
    guard let writable = keyPath as? WritableKeyPath<Base, Value> else { return false }
    return base.update { body(&$0[keyPath: writable]) }
  }
}

/// State that may disappear (optional child, collection element): reads the current value,
/// or the last value it had once it is gone, so a store outliving its child never crashes.
/// It keeps the value it last read: at every read, and after every send through its own store
/// (so a row store that sent its last action reads the row as that action left it). As in
/// TCA, it is not told of other changes: a store for each of 10,000 rows costs nothing per
/// send of another row, and a store ten optionals deep reads through its parents once. A
/// presented child store reads through its parents without changing what they keep
/// (``_Projection/withCurrent(_:)``): each store keeps what it read itself, and a parent's
/// store is not brought up to date by its children's reads and sends. So once a presentation
/// is dismissed, a store above it may show an older value than a store below it, or the other
/// way round: each shows the last it read (a view that read it after every change shows the
/// latest).
@MainActor
final class _LastValueProjection<Value>: _Projection<Value> {
  /// Writes the current value into its argument and returns `true`, or returns `false` when
  /// the state is gone. (Not a function returning an optional: this class's methods run
  /// unspecialized, and an optional of `Value` there is a metadata lookup at every read.)
  let read: @MainActor (inout Value) -> Bool
  /// Runs its argument on the current value and returns `true`, or returns `false` without
  /// running it when the state is gone: how a child store reads through this one, without a
  /// copy of what this one keeps at every level (``withCurrent(_:)``).
  let visit: @MainActor ((inout Value) -> Void) -> Bool
  /// Unchecked: read and written on the main actor only, never while `read` runs on it.
  @exclusivity(unchecked) var last: Value
  /// For a row's store: tells its collection's group that someone listens to the row, when it
  /// does not know yet. A read of the row's state is how an observer starts listening, so the
  /// check is made here, on a row store's reads only, never on other stores' reads.
  var listening: _RowListening?
  /// Changes the value where its parent holds it (see ``_Projection/update(_:)``), or `nil`
  /// when it cannot.
  let write: (@MainActor ((inout Value) -> Void) -> Bool)?

  init(
    initial: Value, read: @escaping @MainActor (inout Value) -> Bool,
    visit: @escaping @MainActor ((inout Value) -> Void) -> Bool,
    write: (@MainActor ((inout Value) -> Void) -> Bool)? = nil
  ) {
    self.last = initial
    self.read = read
    self.visit = visit
    self.write = write
    super.init(refreshesOnSend: true)
  }

  override func update(_ body: (inout Value) -> Void) -> Bool {
    guard let write else { return false }
    return write(body)
  }

  override func get() -> Value {
    startListening()
    _ = read(&last)
    return last
  }

  override func withCurrent(_ body: (inout Value) -> Void) -> Bool {
    startListening()
    return visit(body)
  }

  override func startListening() {
    if let listening, !listening.isKnown { listening.start() }
  }

  override func refresh() { _ = read(&last) }
}
