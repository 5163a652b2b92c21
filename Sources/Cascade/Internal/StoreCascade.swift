/// The cascade of a store core: it knows where its effects' actions go.
///
/// The `Send` of a `.run` effect captures this object alone (no closure context of its own:
/// a closure over one reference uses it as its context), and reaches the core through it.
///
/// `@unchecked Sendable` (as ``_Cascade``): `core` is written once, in `init`; weak references
/// are safe to read from any thread, and it is only read on the main actor.
@usableFromInline
final class _StoreCascade<State, Action>: _Cascade, @unchecked Sendable {
  @usableFromInline private(set) weak var core: _StoreCore<State, Action>?

  @MainActor
  @usableFromInline
  init(core: _StoreCore<State, Action>) {
    self.core = core
    super.init(runner: core.runner)
  }
}
