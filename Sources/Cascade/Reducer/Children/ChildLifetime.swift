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
    if case .enumeration = kind { canBeEphemeral = true } else { canBeEphemeral = isEphemeralType }
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

  /// Whether a child here may go away by itself once acted on: an alert, a dialog, or an enum
  /// of destinations (one of whose cases may be one). When not, no child is read to ask.
  @usableFromInline let canBeEphemeral: Bool

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
