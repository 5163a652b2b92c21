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
      path: _StatePath(op.toChildState), element: _LazyCompiled(op.child),
      toAction: op.toChildAction))
}

/// `forEach`'s adapter: the children are the elements of an identified collection, each told
/// apart by its id; elements removed by any route take their effects with them.
@usableFromInline
struct _ElementsAdapter<ParentState, ParentAction, ID: Hashable & Sendable, Element: Reducer>:
  _ChildAdapter
{
  @usableFromInline typealias ElementState = Element.State
  @usableFromInline typealias ElementAction = Element.Action

  @usableFromInline let route: _CaseRoute<ParentAction, IdentifiedAction<ID, ElementAction>>
  @usableFromInline let lifetime: _ChildLifetime<ElementState>
  @usableFromInline let path: _StatePath<ParentState, IdentifiedArray<ID, ElementState>>
  @usableFromInline let element: _LazyCompiled<Element>
  @usableFromInline let live = _LiveElements<ID>()

  @inlinable
  init(
    lifetime: _ChildLifetime<ElementState>,
    path: _StatePath<ParentState, IdentifiedArray<ID, ElementState>>,
    element: _LazyCompiled<Element>,
    toAction: CasePath<ParentAction, IdentifiedAction<ID, ElementAction>>
  ) {
    self.lifetime = lifetime
    self.path = path
    self.element = element
    self.route = toAction._route
  }

  @inlinable @inline(__always)
  func command(_ action: ParentAction) -> _ChildCommand<ID, ElementAction, ElementState>? {
    guard case let .element(id, elementAction)? = route.extract(action) else { return nil }
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
    let embed = route.embed
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

/// Which elements of a collection (stack screens or rows) went since one operator last looked,
/// by any route: the operator's own action, the parent reducer, or a reducer outside the
/// operator between two actions, so that it can end their effects.
///
/// The operator keeps only the collection's stamp from its last look, never the ids (the set
/// cost two hash operations a push or a pop) nor a copy of the collection's index (a copy
/// would share the state's storage, and the next push or pop would copy the whole
/// collection). An action that changes nothing costs a stamp comparison; a push or a pop reads
/// the collection's change log (O(1)). A change the log cannot describe (a new collection
/// assigned, many changes at once) ends every element's effects but the current elements'.
@usableFromInline
final class _LiveElements<ID: Hashable & Sendable> {
  /// The collection's stamp at the last look; `nil` before the operator's first action.
  // Unchecked exclusivity: only the operator's own function touches it, one access at a time,
  // and it is read twice an action.
  @usableFromInline @exclusivity(unchecked) var seenStamp: UInt64?

  @inlinable
  init() {}

  /// What the operator reads of the collection when its log cannot tell what went: its ids,
  /// its log and its stamp, three of its references (a copy of the whole collection retained
  /// and released all of them).
  @usableFromInline
  struct Structure {
    @usableFromInline let positions: [ID: Int]
    @usableFromInline let log: _StructureLog<ID>
    @usableFromInline let stamp: UInt64

    @inlinable
    init<Element>(_ elements: borrowing IdentifiedArray<ID, Element>) {
      positions = elements._positions
      log = elements._log
      stamp = elements._stamp
    }
  }

  /// Call before an action changes the collection: the first time, takes its stamp (its
  /// elements may start effects from now on).
  @inlinable
  func prepare(stamp: () -> UInt64) {
    guard seenStamp == nil else { return }
    seenStamp = stamp()
  }

  /// Call after an action that put a different collection in place of the one last seen (a
  /// new stack assigned): every element but the new collection's is gone.
  @inlinable
  func replaced(by structure: () -> Structure) -> _Departures<ID> {
    let structure = structure()
    seenStamp = structure.stamp
    return .allBut(Set(structure.positions.keys))
  }

  /// Call after the action, with the collection's `stamp`: the elements that went since the
  /// last look. Nothing, and the collection not read, when it did not change. One change
  /// since the last look (a push, a pop) is read from `lastChange`, the newest entry of the
  /// collection's log, copied out of it; more, from `structure`.
  @inlinable
  func gone(
    stamp: UInt64, lastChange: () -> _StructureLog<ID>.Entry?, _ structure: () -> Structure
  ) -> _Departures<ID> {
    guard let seen = seenStamp, stamp != seen else { return .some(_GoneIDs()) }
    var gone = _GoneIDs<ID>()
    // The newest entry made at the stamp last seen is the one change since: any later change
    // would have logged an entry after it, or emptied the log.
    if let last = lastChange(), last.stamp == seen {
      seenStamp = stamp
      if case let .removed(id) = last.change { gone.insert(id) }
      return .some(gone)
    }
    let structure = structure()
    seenStamp = structure.stamp
    guard let start = structure.log.start(since: seen) else {
      return .allBut(Set(structure.positions.keys))
    }
    // Indexed in the local copy: a slice of the log would retain its storage again.
    for index in start..<structure.log.entries.endIndex {
      switch structure.log.entries[index].change {
      // Removed and added again: the same element, still there.
      case let .added(id): gone.remove(id)
      case let .removed(id): gone.insert(id)
      case .reordered, .modified: break
      }
    }
    return .some(gone)
  }
}

/// The elements that went since an operator last looked: these ids, or every element but the
/// current ones (when the collection's log could not tell which).
@usableFromInline
enum _Departures<ID: Hashable & Sendable> {
  case some(_GoneIDs<ID>)
  case allBut(Set<ID>)

  /// Whether nothing went.
  @inlinable
  var isEmpty: Bool {
    if case let .some(gone) = self { return gone.isEmpty }
    return false
  }
}

/// The ids of the elements an action removed: usually one (a pop, a row deleted), kept
/// without a set, so a pop allocates nothing; a set only from the second.
@usableFromInline
struct _GoneIDs<ID: Hashable & Sendable>: Sendable, Sequence {
  /// The same ids, each transformed.
  @inlinable
  func map<Other>(_ transform: (ID) -> Other) -> _GoneIDs<Other> {
    var mapped = _GoneIDs<Other>()
    if let first { mapped.insert(transform(first)) }
    for id in others { mapped.insert(transform(id)) }
    return mapped
  }

  @usableFromInline var first: ID?
  @usableFromInline var others: Set<ID>

  @inlinable init() { others = Set() }

  @inlinable var isEmpty: Bool { first == nil }

  @inlinable
  mutating func insert(_ id: ID) {
    if let first {
      if first != id { others.insert(id) }
    } else {
      first = id
    }
  }

  @inlinable
  func contains(_ id: ID) -> Bool {
    guard let first else { return false }
    return first == id || (!others.isEmpty && others.contains(id))
  }

  @inlinable
  mutating func remove(_ id: ID) {
    guard let current = first else { return }
    if current == id {
      first = others.popFirst()
    } else if !others.isEmpty {
      others.remove(id)
    }
  }

  /// The first id, then the others.
  @inlinable
  func makeIterator() -> Iterator { Iterator(first: first, others: others.makeIterator()) }

  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline var first: ID?
    @usableFromInline var others: Set<ID>.Iterator

    @inlinable
    init(first: ID?, others: Set<ID>.Iterator) {
      self.first = first
      self.others = others
    }

    @inlinable
    mutating func next() -> ID? {
      guard let id = first else { return others.next() }
      first = nil
      return id
    }
  }
}
