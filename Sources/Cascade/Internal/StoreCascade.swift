/// The cascade of a store core: it knows where its effects' actions go.
///
/// The `Send` of a `.run` effect captures this object alone (no closure context of its own:
/// a closure over one reference uses it as its context), and reaches the core through it.
///
/// `@unchecked Sendable` (as ``_Cascade``): `target` is written once, in `init`, and the core
/// behind it is only read on the main actor.
@usableFromInline
final class _StoreCascade<State, Action>: _Cascade, @unchecked Sendable {
  @usableFromInline let target: _WeakCore<State, Action>

  /// The store core, or nil once it is gone.
  @inlinable var core: _StoreCore<State, Action>? { target.core }

  @MainActor
  @usableFromInline
  init(core: _StoreCore<State, Action>) {
    self.target = core.weakSelf
    super.init(runner: core.runner)
  }
}

/// A weak reference to a store core, one per core, shared by its cascades.
///
/// `@unchecked Sendable`: `core` is written once, when the core is made, before any cascade
/// can see the box; weak references are safe to read from any thread.
@usableFromInline
final class _WeakCore<State, Action>: @unchecked Sendable {
  @usableFromInline weak var core: _StoreCore<State, Action>?
  @usableFromInline init() {}
}
