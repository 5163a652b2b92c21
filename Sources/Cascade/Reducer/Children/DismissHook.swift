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
    _mapped(by: _PresentedMapper(transform: transform, dismiss: dismiss))
  }
}

/// `_mapPresented`'s mapper: actions embedded by `transform`, and each `.run` (its operation
/// and its error handler) run with `dismiss` bound to its own parent-level send.
struct _PresentedMapper<Source, Target>: _EffectMapper {
  let transform: @Sendable (Source) -> Target
  let dismiss: @Sendable (Send<Target>) async -> Void

  func map(_ action: Source) -> Target { transform(action) }

  func map(_ run: _Run<Source>) -> _Run<Target> {
    let mapped = run.map(transform)
    let operation = mapped.operation
    let handler = mapped.handler
    let dismiss = self.dismiss
    var boundHandler: (@Sendable (any Error, Send<Target>) async -> Void)?
    if let handler {
      boundHandler = { error, send in
        await _DismissHook.$current.withValue(_DismissAction { await dismiss(send) }) {
          await handler(error, send)
        }
      }
    }
    return _Run<Target>(
      priority: mapped.priority,
      operation: { send in
        try await _DismissHook.$current.withValue(_DismissAction { await dismiss(send) }) {
          try await operation(send)
        }
      },
      handler: boundHandler,
      fileID: mapped.fileID, line: mapped.line, dependencies: mapped.dependencies)
  }
}

/// Runs a presented child's reducer with `dismiss` and `isPresented` set for it, so that the
/// effects it creates capture them. The derived values are cached per store values, so a
/// child action allocates nothing once warm.
@usableFromInline
final class _PresentedDependencies {
  // Unchecked: an operator's adapter runs on its store's actor, one action at a time; checked,
  // each level of a nested presentation paid two dynamic exclusivity checks per action.
  @usableFromInline @exclusivity(unchecked) var base: _DependencyBox?
  @usableFromInline @exclusivity(unchecked) var presented: _DependencyBox?
  /// `base`'s address, compared at every action without retaining `base` (which keeps the
  /// address from being reused while it is remembered here).
  @usableFromInline @exclusivity(unchecked) var baseAddress: UnsafeMutableRawPointer?

  @usableFromInline
  init() {}

  /// Inlinable, so that each level of a nested presentation runs its child through it without
  /// a generic call.
  @inlinable @inline(__always)
  func run<Result>(_ body: () -> Result) -> Result {
    // Unretained: the batch holds its values, and this object holds the derived ones, for
    // the whole call; retained, each level of a nested presentation paid two retains and two
    // releases per action.
    guard let current = _SendLoopSlot.currentUnretained else { return runOutsideBatch(body) }
    if current.toOpaque() != baseAddress { derive(from: current.takeUnretainedValue()) }
    return _SendLoopSlot.replacing(
      unretained: Unmanaged.passUnretained(presented.unsafelyUnwrapped), body)
  }

  /// Derives the presented values from the batch's `current` ones, once per batch values.
  @usableFromInline
  func derive(from current: _DependencyBox) {
    base = current
    baseAddress = Unmanaged.passUnretained(current).toOpaque()
    presented = _DependencyBox(Self.presenting(current.values))
  }

  @usableFromInline
  func runOutsideBatch<Result>(_ body: () -> Result) -> Result {
    DependencyValues._withValue(Self.presenting(DependencyValues._current), operation: body)
  }

  private static func presenting(_ values: DependencyValues) -> DependencyValues {
    var values = values
    values.dismiss = .navigation
    values.isPresented = true
    return values
  }
}
