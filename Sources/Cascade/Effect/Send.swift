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
