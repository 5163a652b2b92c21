/// The override a `.dependency(_:_:)` or `.transformDependency(_:transform:)` reducer applies
/// around every action it reduces.
///
/// Inside a send loop the values it overrides are those of a store's slot, which change only
/// when a test replaces them: a constant override (`.dependency(\.clock, clock)`) keeps the
/// values it made from the last ones it saw and makes them again only when they change, so that
/// an action through it allocates nothing. A transform runs for every action, as the user
/// wrote it, since it may not give the same result twice.
///
/// Used only by the reducer function it belongs to, which is not `Sendable`: the cache is never
/// touched from two threads at once.
@usableFromInline
final class _DependencyOverride {
  @usableFromInline let update: @Sendable (inout DependencyValues) -> Void
  @usableFromInline let isConstant: Bool
  /// The values last overridden (kept alive, so that identity cannot be reused), and the result.
  @usableFromInline var overridden: _DependencyBox?
  @usableFromInline var result: _DependencyBox?

  @usableFromInline
  init(isConstant: Bool, update: @escaping @Sendable (inout DependencyValues) -> Void) {
    self.isConstant = isConstant
    self.update = update
  }

  /// The current values, overridden.
  @usableFromInline
  func values() -> DependencyValues {
    var values = DependencyValues._current
    DependencyValues._set(&values, update)
    return values
  }

  /// Runs `body` with the override applied; inlinable, so that it is specialized with the
  /// reducer it wraps.
  @inlinable
  func run<R>(_ body: () -> R) -> R {
    guard isConstant, let current = _BatchDependencies.current else {
      return DependencyValues._withValue(values(), operation: body)
    }
    return _BatchDependencies.with(box(overriding: current), body)
  }

  /// The overridden values of `current`, made again only when `current` changes.
  @usableFromInline
  func box(overriding current: _DependencyBox) -> _DependencyBox {
    if current !== overridden || result == nil {
      var values = current.values
      DependencyValues._set(&values, update)
      overridden = current
      result = _DependencyBox(values)
    }
    return result!
  }
}
