/// The effects one ``Store/send(_:)`` started, including those started by the actions those
/// effects sent in turn: cancel them, or wait for them to finish.
///
/// ```swift
/// let task = store.send(.onAppear)
/// // ...
/// task.cancel()          // stop listening
///
/// await store.send(.refresh).finish()   // wait until the refresh and its follow-ups are done
/// ```
public struct StoreTask: Hashable, Sendable {
  @usableFromInline package let cascade: _Cascade?

  @usableFromInline package init(_ cascade: _Cascade?) { self.cascade = cascade }

  /// Cancels every effect of the cascade, now and as they start.
  public func cancel() { cascade?.cancel() }

  /// Waits until every effect of the cascade has finished. Cancelling the task that waits
  /// cancels the effects.
  ///
  /// It runs on the caller's actor: on a send whose effects have all finished (or that started
  /// none) it returns without suspending.
  ///
  /// ```swift
  /// await store.send(.refresh).finish()
  /// ```
  ///
  /// - Parameter isolation: The caller's actor, where the wait runs; leave it to its default.
  public func finish(isolation: isolated (any Actor)? = #isolation) async {
    guard let cascade, cascade.isRunning else { return }
    await withTaskCancellationHandler {
      await cascade.wait()
    } onCancel: {
      cascade.cancel()
    }
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { cascade?.isCancelled ?? false }

  /// Equal when both are the effects of one `send`; tasks of sends that started no effect are
  /// all equal.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.cascade === rhs.cascade }

  /// Hashes the identity of the `send` whose effects these are.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(cascade.map(ObjectIdentifier.init))
  }
}
