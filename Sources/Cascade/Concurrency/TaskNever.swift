extension Task where Success == Never, Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError`.
  ///
  /// Useful for a test double of an endpoint that never answers (a socket that stays open, a
  /// permission prompt nobody taps) and for an effect that must hold a resource until it is
  /// cancelled:
  ///
  /// ```swift
  /// let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
  ///   $0.weatherClient.forecast = { _ in try await Task.never() }  // never answers
  /// }
  /// ```
  ///
  /// It holds no thread and no timer while it waits.
  public static func never() async throws -> Never {
    let waiter = _NeverWaiter()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiter.park(continuation)
      }
    } onCancel: {
      waiter.cancel()
    }
    fatalError("Task.never() resumed without being cancelled")
  }
}

/// The continuation `Task.never()` parks, and whether the task was cancelled before it parked.
/// Resumed (outside the lock) by the first of cancellation and parking-after-cancellation.
private final class _NeverWaiter: Sendable {
  private enum Phase {
    case waiting
    case parked(CheckedContinuation<Void, any Error>)
    case cancelled
  }
  private let phase = Guarded(Phase.waiting)

  func park(_ continuation: CheckedContinuation<Void, any Error>) {
    let cancelled = phase.withLock { phase -> Bool in
      if case .cancelled = phase { return true }
      phase = .parked(continuation)
      return false
    }
    if cancelled { continuation.resume(throwing: CancellationError()) }
  }

  func cancel() {
    let parked = phase.withLock { phase -> CheckedContinuation<Void, any Error>? in
      defer { phase = .cancelled }
      if case let .parked(continuation) = phase { return continuation }
      return nil
    }
    parked?.resume(throwing: CancellationError())
  }
}
