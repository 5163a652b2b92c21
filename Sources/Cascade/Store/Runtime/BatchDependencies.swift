/// Dependencies boxed for the slot below; a store allocates its box once.
@usableFromInline
final class _DependencyBox: Sendable {
  @usableFromInline let values: DependencyValues
  @usableFromInline init(_ values: DependencyValues) { self.values = values }
}

/// The dependencies of the send loop running on this thread.
///
/// A store runs every batch inside the dependencies it pinned. Binding a task-local for each
/// batch costs an allocation (outside a task, Swift keeps task-locals in a heap-allocated
/// fallback), so the loop publishes its values in a slot instead. `DependencyValues.current`
/// reads this slot first. Overrides made while a batch runs (`withDependencies`, `.dependency`)
/// stack on the slot too, so they keep their precedence; effects capture the values when created
/// and bind them as a task-local in their own task, where no batch runs.
///
/// The slot is one per process, owned by the thread running a send loop: send loops run on the
/// main actor only, so there is at most one such thread at a time, and it is the only one that
/// writes the slot, with two atomic stores and a thread-id read per batch rather than a
/// thread-local's calls. Any other thread reads the owner, sees it is not itself, and never
/// touches the box. Where the OS gives no thread identity (the portable fallback, see
/// `Internal/Platform.swift`), the slot is a task-local instead.
@usableFromInline
enum _BatchDependencies {
  @inlinable static var current: _DependencyBox? { _SendLoopSlot.current }

  @inlinable
  static func with<Result>(_ box: _DependencyBox, _ body: () throws -> Result) rethrows -> Result {
    try withExtendedLifetime(box) { try with(unretained: Unmanaged.passUnretained(box), body) }
  }

  /// Publishes `box` for `body`, for a caller that keeps the box alive until `body` returns.
  @inlinable
  static func with<Result>(
    unretained box: Unmanaged<_DependencyBox>, _ body: () throws -> Result
  ) rethrows -> Result {
    try _SendLoopSlot.with(unretained: box, body)
  }
}
