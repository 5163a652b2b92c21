/// The cascade of a store core: it knows where its effects' actions go.
///
/// The `Send` of a `.run` effect captures this object alone (no closure context of its own:
/// a closure over one reference uses it as its context), and reaches the core through it.
///
/// `@unchecked Sendable` (as ``_Cascade``): `target` is written once, in `init`, and the core
/// behind it is only read on the main actor.
@usableFromInline
final class _StoreCascade<State, Action>: _Cascade, @unchecked Sendable {
  @usableFromInline let target: _WeakReference<_StoreCore<State, Action>>

  /// The store core, or nil once it is gone.
  @inlinable var core: _StoreCore<State, Action>? { target.object }

  @MainActor
  @usableFromInline
  init(core: _StoreCore<State, Action>) {
    self.target = core.weakSelf
    super.init(runner: core.runner)
  }
}
