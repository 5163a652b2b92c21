/// Root state, addressable in place by projections.
@usableFromInline
@MainActor
package class _StateBox<State>: _CoreBase {
  /// Where the state lives, for the box's whole life: a scoped store reads its part with one
  /// load at a fixed offset from here, in code specialized with its state type.
  /// `nonisolated(unsafe)`: read off the main actor only by `deinit`, which runs when nothing
  /// else can reach the box.
  @usableFromInline nonisolated(unsafe) let storage: UnsafeMutablePointer<State>

  /// The state, in place. Exclusivity is enforced by construction instead of at run time: the
  /// state is touched only on the main actor, by the send loop (which never re-enters a
  /// reducer) and by reads.
  @inlinable package final var state: State {
    unsafeAddress { UnsafePointer(storage) }
    unsafeMutableAddress { storage }
  }

  @usableFromInline init(state: State, runner: _EffectRunner) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: state)
    super.init(runner: runner)
  }

  deinit {
    runner.tearDown()
    storage.deinitialize(count: 1)
    storage.deallocate()
  }
}
