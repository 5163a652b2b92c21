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
struct _ChildIdentity: Hashable, @unchecked Sendable {
  var tag: UInt32
  var id: AnyHashable?

  static let position = Self(tag: 0, id: nil)
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

  /// Cancels the effects of the screens of the stacks `operatorID` names that are gone: those
  /// of the stack `current` no longer in `positions`, and every screen of the stacks in
  /// `replaced` (stacks this one replaced).
  static func screens(
    of operatorID: _AnyID, current: UInt64, presentIn positions: [StackElementID: Int],
    replaced: [UInt64]
  ) -> Self {
    Self { position in
      guard
        let navigation = position.base as? _NavigationID,
        navigation.operator == operatorID,
        let slot = navigation.element?.base as? _StackSlot
      else { return false }
      if slot.stack == current { return positions[slot.id] == nil }
      return replaced.contains(slot.stack)
    }
  }
}

/// Where a screen's effects run: its stack (a token each stack value gets when it is made, so
/// two stacks of one feature, or a stack and the one that replaced it, never share positions)
/// and its id.
struct _StackSlot: Hashable, Sendable {
  let stack: UInt64
  let id: StackElementID
}
