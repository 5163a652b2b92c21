/// How the running effect dismisses the feature that started it.
///
/// A navigation reducer embedding a child's effects wraps each operation so that, while it
/// runs, this holds "send the parent `.popFrom(id:)` (or `.dismiss`) through this effect's
/// own send". The dismissal is therefore attributed to the child's effect like any action it
/// sends, and nested navigation dismisses the innermost feature (the innermost binding wins).
enum _DismissHook {
  @TaskLocal static var current: _DismissAction?
}

/// The dismissal a running effect is bound to. A struct around the closure, not a bare
/// optional closure, for the reason `RuntimeWarningHandler` gives: optimized builds crashed.
struct _DismissAction: Sendable {
  let run: @Sendable () async -> Void
}

extension Effect {
  /// Embeds a presented child's effects: actions mapped by `transform`, and `dismiss` (given
  /// the parent-level send) bound as the child's way to dismiss itself.
  @usableFromInline
  func _mapPresented<ParentAction>(
    _ transform: @escaping @Sendable (Action) -> ParentAction,
    dismiss: @escaping @Sendable (Send<ParentAction>) async -> Void
  ) -> Effect<ParentAction> {
    /// The `.run` bound to the child's dismissal, its actions mapped.
    func bound(_ run: _Run<Action>) -> _Run<ParentAction> {
      let mapped = run.map(transform)
      let operation = mapped.operation
      let handler: (@Sendable (any Error, Send<ParentAction>) async -> Void)? =
        if let handler = mapped.handler {
          { error, send in
            await _DismissHook.$current.withValue(_DismissAction { await dismiss(send) }) {
              await handler(error, send)
            }
          }
        } else {
          nil
        }
      return _Run(
        priority: mapped.priority,
        operation: { send in
          try await _DismissHook.$current.withValue(_DismissAction { await dismiss(send) }) {
            try await operation(send)
          }
        },
        handler: handler,
        fileID: mapped.fileID, line: mapped.line, dependencies: mapped.dependencies)
    }
    return _mapOperations(transform, run: bound)
  }
}

/// Runs a presented child's reducer with `dismiss` and `isPresented` set for it, so that the
/// effects it creates capture them. The derived values are cached per store values, so a
/// child action allocates nothing once warm.
@usableFromInline
final class _PresentedDependencies {
  private var base: _DependencyBox?
  private var presented: _DependencyBox?

  @usableFromInline
  init() {}

  @usableFromInline
  func run<Result>(_ body: () -> Result) -> Result {
    guard let current = _BatchDependencies.current else {
      return DependencyValues._withValue(
        Self.presenting(DependencyValues._current), operation: body)
    }
    if current !== base || presented == nil {
      base = current
      presented = _DependencyBox(Self.presenting(current.values))
    }
    return _BatchDependencies.with(presented!, body)
  }

  private static func presenting(_ values: DependencyValues) -> DependencyValues {
    var values = values
    values.dismiss = .navigation
    values.isPresented = true
    return values
  }
}
