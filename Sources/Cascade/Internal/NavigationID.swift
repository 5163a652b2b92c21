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

/// Cancels the effects of the navigation positions directly under the current one for which
/// `isGone` is true.
@usableFromInline
struct _NavigationPrune: Sendable {
  let isGone: @Sendable (_AnyID) -> Bool

  /// Cancels the effects of the elements of the collection `operatorID` names whose ids are
  /// in `gone`.
  static func elements<ID: Hashable & Sendable>(of operatorID: _AnyID, gone: Set<ID>) -> Self {
    Self { position in
      guard
        let navigation = position.base as? _NavigationID,
        navigation.operator == operatorID,
        let id = navigation.element?.base as? ID
      else { return false }
      return gone.contains(id)
    }
  }
}
