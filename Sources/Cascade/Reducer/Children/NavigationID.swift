/// Names one navigation position in a parent: the operator (its state key path, or its source
/// location) and the child there (a collection element's id, or a single child's identity).
/// Effects of the child at that position run under it, so they can be cancelled together when
/// the child goes away, and their cancellation ids never collide with another position's.
struct _NavigationID: Hashable, Sendable {
  let `operator`: _AnyID
  let element: _AnyID?
}

/// Who a single child is, as far as its lifetime goes: its enum case (when its state is an
/// enum), and its `id` (when its state, or its case's payload, is `Identifiable`). A child
/// that is neither has one identity per position: replacing it keeps its effects, as in TCA.
///
/// `@unchecked Sendable`: `id` only ever holds the `id` of an `Identifiable` value, which is
/// immutable once taken; it crosses tasks only inside a navigation position.
@usableFromInline
struct _ChildIdentity: Hashable, @unchecked Sendable {
  var tag: UInt32
  var id: AnyHashable?

  @usableFromInline static let position = Self(tag: 0, id: nil)
}

/// Cancels the effects of the navigation positions directly under the current one that it
/// names as gone.
///
/// A class, so that a `.prune` effect is one word wide (every `Effect` is as wide as its widest
/// case, and effects travel up every level of composition on every action) and costs one
/// allocation. Its subclasses are immutable, hence
/// `@unchecked Sendable`.
@usableFromInline
class _NavigationPrune: @unchecked Sendable {
  /// Whether the child at `position` is gone.
  @usableFromInline
  func isGone(_ position: _AnyID) -> Bool { false }

  @usableFromInline init() {}

  /// Ends the one position `position`.
  static func position(_ position: _AnyID) -> _NavigationPrune {
    _PositionPrune(position)
  }

  /// Cancels the effects of the elements of the collection `operatorID` names whose ids are
  /// in `gone`.
  @inlinable
  static func elements<ID: Hashable & Sendable>(
    of operatorID: _AnyID, gone: _GoneIDs<ID>
  ) -> _NavigationPrune {
    _ElementsPrune(operatorID: operatorID, gone: gone)
  }
}

extension _NavigationPrune {
  /// Cancels the effects of every element of the collection `operatorID` names whose id is not
  /// in `kept`.
  @inlinable
  static func elements<ID: Hashable & Sendable>(
    of operatorID: _AnyID, allBut kept: Set<ID>
  ) -> _NavigationPrune {
    _ElementsPrune(operatorID: operatorID, departed: .allBut(kept))
  }
}

private final class _PositionPrune: _NavigationPrune, @unchecked Sendable {
  let position: _AnyID
  init(_ position: _AnyID) { self.position = position }
  override func isGone(_ candidate: _AnyID) -> Bool { candidate == position }
}

/// Specialized in the stack's and `forEach`'s code (made there, on every removal), so that no
/// generic metadata is looked up for it at run time.
@usableFromInline
final class _ElementsPrune<ID: Hashable & Sendable>: _NavigationPrune, @unchecked Sendable {
  @usableFromInline let operatorID: _AnyID
  /// These ids, or every id but those the collection still holds (see `_Departures`).
  @usableFromInline let departed: _Departures<ID>

  @inlinable
  init(operatorID: _AnyID, departed: _Departures<ID>) {
    self.operatorID = operatorID
    self.departed = departed
  }

  @inlinable
  convenience init(operatorID: _AnyID, gone: _GoneIDs<ID>) {
    self.init(operatorID: operatorID, departed: .some(gone))
  }

  @usableFromInline
  override func isGone(_ position: _AnyID) -> Bool {
    guard
      let navigation = position.base as? _NavigationID,
      navigation.operator == operatorID,
      let id = navigation.element?.base as? ID
    else { return false }
    switch departed {
    case let .some(gone): return gone.contains(id)
    case let .allBut(kept): return !kept.contains(id)
    }
  }
}
