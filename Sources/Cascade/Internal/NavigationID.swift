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
}
