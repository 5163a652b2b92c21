import Synchronization

/// The handle an effect uses to send actions back into its store.
///
/// `.run` hands one to its operation. Sending hops to the main actor, where the store reduces
/// the action at once. Once the effect's task is cancelled, sending does nothing, so a cancelled
/// effect can never deliver a late response.
///
/// ```swift
/// return .run { send in
///   await send(.loadingStarted)
///   await send(.loaded(try await client.load()))
/// }
/// ```
@MainActor
public struct Send<Action>: Sendable {
  @usableFromInline let send: @MainActor @Sendable (Action) -> Void

  /// Creates a send handle from a function; useful to drive an effect's operation in isolation.
  public nonisolated init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends `action`, unless the current task has been cancelled.
  public func callAsFunction(_ action: sending Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }

  /// A handle for a child's actions that embeds them with `transform` and sends them here.
  @inlinable
  nonisolated func map<ChildAction>(
    _ transform: @escaping @Sendable (ChildAction) -> Action
  ) -> Send<ChildAction> {
    let send = self.send
    return Send<ChildAction>(send: { send(transform($0)) })
  }
}

/// Whether a `.run` effect's operation (and its error handler) has returned. Debug builds only.
final class _RunLifetime: Sendable {
  private let hasEnded = Atomic<Bool>(false)
  var isOver: Bool { hasEnded.load(ordering: .acquiring) }
  func end() { hasEnded.store(true, ordering: .releasing) }
}

extension Send {
  /// This handle, reporting every action sent after `lifetime` is over; the action is still
  /// sent, as the store would have.
  nonisolated func _reportingSendsAfterEnd(
    of lifetime: _RunLifetime, fileID: StaticString, line: UInt
  ) -> Send {
    let send = self.send
    return Send { action in
      if lifetime.isOver {
        reportRuntimeWarning(
          """
          An effect sent an action after its operation had returned: \(_describe(action))

          The '.run' at this line passed its 'send' to work that outlived it (a task, a \
          callback), so 'finish()' no longer waits for that work and cancelling the effect \
          does not reach it. Await the work inside the operation instead, so that '.run' \
          returns only when it is done sending.
          """,
          fileID: fileID, line: line)
      }
      send(action)
    }
  }
}
