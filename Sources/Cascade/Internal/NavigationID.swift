/// Names one navigation position in a parent: the operator (its state key path, or its source
/// location) and, for collections, the element's id. Effects of the child at that position run
/// under it, so they can be cancelled together when the child goes away, and their
/// cancellation ids never collide with another position's.
struct _NavigationID: Hashable, Sendable {
  let `operator`: _AnyID
  let element: _AnyID?
}

/// Cancels the effects of the navigation positions directly under the current one for which
/// `isGone` is true.
@usableFromInline
struct _NavigationPrune: Sendable {
  let isGone: @Sendable (_AnyID) -> Bool

  /// Cancels the effects of the elements of the collection `operatorID` names whose ids are
  /// no longer in `positions` (the collection's id index after the action).
  static func elements<ID: Hashable & Sendable>(
    of operatorID: _AnyID, presentIn positions: [ID: Int]
  ) -> Self {
    Self { position in
      guard
        let navigation = position.base as? _NavigationID,
        navigation.operator == operatorID,
        let id = navigation.element?.base as? ID
      else { return false }
      return positions[id] == nil
    }
  }
}
