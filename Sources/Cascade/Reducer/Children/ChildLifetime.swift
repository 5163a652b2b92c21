/// The identity and lifetime of the children at one navigation position: the one place the
/// child operators (`ifLet`, `ifCaseLet`, `forEach`, presentation and stack) learn who a child
/// is, run its effects under its position, cancel them when it goes or is replaced, and
/// report actions sent to a child that is not there.
///
/// A single child's identity is its enum case, plus its `id` when it (or its case's payload)
/// is `Identifiable`; a collection element's identity is its id. A child's position is the
/// operator plus that identity, and it nests: a child's effects run under its parent's
/// position too, so dismissing a parent tears down everything below it and nothing beside it.
///
/// Built once per operator, when the store builds its reducer. Learning how to identify an
/// enum case reads the case's payload with `Mirror`, once per case; after that an identity is
/// a case-tag read and, for an identifiable payload, a copy of its id: nothing allocated.
@usableFromInline
final class _ChildLifetime<Child> {
  private enum Kind {
    case position
    case identifiable((Child) -> AnyHashable)
    case enumeration(_EnumMetadata)
  }

  private struct Case {
    let id: ((Child) -> AnyHashable)?
    let isEphemeral: Bool
  }

  @usableFromInline let operatorID: _AnyID
  let fileID: StaticString
  let line: UInt
  private let kind: Kind
  private let isEphemeralType: Bool
  /// What each enum case met so far is: learned once per case.
  private var cases: [UInt32: Case] = [:]

  @usableFromInline
  init(operator operatorID: _AnyID, fileID: StaticString, line: UInt) {
    self.operatorID = operatorID
    self.fileID = fileID
    self.line = line
    self.isEphemeralType = Child.self is any _EphemeralState.Type
    if let identifiable = Child.self as? any Identifiable.Type {
      kind = .identifiable(_idFunction(identifiable, of: Child.self))
    } else if let metadata = _EnumMetadata(Child.self), !(Child.self is _OptionalMarker.Type) {
      kind = .enumeration(metadata)
    } else {
      kind = .position
    }
  }

  /// Whether every child here has the same identity, so a replaced child is the same child.
  @usableFromInline
  var identifiesByPositionOnly: Bool {
    if case .position = kind { return true }
    return false
  }

  /// Who `child` is.
  @usableFromInline
  func identity(of child: Child) -> _ChildIdentity {
    switch kind {
    case .position:
      return .position
    case let .identifiable(id):
      return _ChildIdentity(tag: 0, id: id(child))
    case let .enumeration(metadata):
      let tag = metadata.tag(of: child)
      return _ChildIdentity(tag: tag, id: enumCase(tag, of: child).id?(child))
    }
  }

  /// Whether `child` goes away by itself once acted on: an alert or a dialog, presented
  /// directly or as a case of a destination enum.
  @usableFromInline
  func isEphemeral(_ child: Child) -> Bool {
    if isEphemeralType { return true }
    guard case let .enumeration(metadata) = kind else { return false }
    return enumCase(metadata.tag(of: child), of: child).isEphemeral
  }

  /// The position of the single child with `identity`.
  @usableFromInline
  func position(_ identity: _ChildIdentity) -> _AnyID {
    _AnyID(_NavigationID(operator: operatorID, element: _AnyID(identity)))
  }

  /// The position of the collection element with `id`.
  @usableFromInline
  func position<ID: Hashable & Sendable>(element id: ID) -> _AnyID {
    _AnyID(_NavigationID(operator: operatorID, element: _AnyID(id)))
  }

  /// An effect that cancels every effect started at `position` and below it.
  @usableFromInline
  func end<Action>(_ position: _AnyID) -> Effect<Action> {
    Effect(.prune(.position(position)))
  }

  /// An effect that ends the effects of the collection elements with the `gone` ids.
  @inlinable
  func end<Action, ID: Hashable & Sendable>(elements gone: _GoneIDs<ID>) -> Effect<Action> {
    Effect(.prune(.elements(of: operatorID, gone: gone)))
  }

  /// An effect that ends the effects of the collection elements that went.
  @inlinable
  func end<Action, ID: Hashable & Sendable>(_ departures: _Departures<ID>) -> Effect<Action> {
    switch departures {
    case let .some(gone): end(elements: gone)
    case let .allBut(kept): Effect(.prune(.elements(of: operatorID, allBut: kept)))
    }
  }

  /// Reports an action that reached this position while its child was not there.
  @usableFromInline
  func reportStale(_ message: String) {
    reportRuntimeWarning(message, fileID: fileID, line: line)
  }

  /// The slow path, once per enum case: is its payload identifiable, or ephemeral?
  private func enumCase(_ tag: UInt32, of child: Child) -> Case {
    if let known = cases[tag] { return known }
    guard case let .enumeration(metadata) = kind else { return Case(id: nil, isEphemeral: false) }
    let payload = Mirror(reflecting: child).children.first?.value
    var id: ((Child) -> AnyHashable)?
    if let identifiable = payload as? any Identifiable {
      id = _payloadIDFunction(
        identifiable, of: Child.self, metadata: metadata,
        indirect: _EnumCases.of(metadata).dropFirst(Int(tag)).first?.isIndirect ?? false)
    }
    let learned = Case(id: id, isEphemeral: payload is any _EphemeralState)
    cases[tag] = learned
    return learned
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

/// `Optional`'s marker: an optional child state is not an enum of destinations.
private protocol _OptionalMarker {}
extension Optional: _OptionalMarker {}

private func _idFunction<I: Identifiable, Child>(
  _: I.Type, of _: Child.Type
) -> (Child) -> AnyHashable {
  { child in AnyHashable(unsafeBitCast(child, to: I.self).id) }
}

private func _payloadIDFunction<I: Identifiable, Child>(
  _: I, of _: Child.Type, metadata: _EnumMetadata, indirect: Bool
) -> (Child) -> AnyHashable {
  { child in AnyHashable(metadata.payload(of: child, indirect: indirect, as: I.self).id) }
}

/// One identifying lifetime per child state type, for scoping presented stores.
@MainActor private var _scopingLifetimes: [ObjectIdentifier: AnyObject] = [:]

extension _ChildLifetime {
  /// The lifetime that tells presented children apart when a store is scoped to them.
  @MainActor static var scoping: _ChildLifetime<Child> {
    if let known = _scopingLifetimes[ObjectIdentifier(Child.self)] as? _ChildLifetime<Child> {
      return known
    }
    let made = _ChildLifetime(operator: _AnyID("scope"), fileID: #fileID, line: #line)
    _scopingLifetimes[ObjectIdentifier(Child.self)] = made
    return made
  }
}
