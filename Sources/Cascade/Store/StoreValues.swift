extension Store {
  /// The value `transform` derives from the state, now and after every batch that changes it:
  /// an async sequence of distinct values, for programs and tests with no UI.
  ///
  /// ```swift
  /// for await count in store.values(of: \.count) {
  ///   print("count is now", count)
  /// }
  /// ```
  ///
  /// Every change is delivered in order, with consecutive duplicates removed. The sequence
  /// keeps the store alive while it is iterated, and ends when the iterating task is cancelled.
  /// It can be iterated once.
  public func values<Value: Equatable & Sendable>(
    of transform: @escaping @MainActor @Sendable (State) -> Value
  ) -> StoreValues<Value> {
    let subscription = _StoreSubscription<Value> { [self] in transform(self.projection.get()) }
    core.subscribe(subscription)
    projection.startListening()
    return StoreValues(subscription: subscription)
  }

  /// The state, now and after every batch that changed it, as distinct values.
  ///
  /// ```swift
  /// for await state in store.values() where state.isLoaded { break }
  /// ```
  public func values() -> StoreValues<State> where State: Equatable & Sendable {
    values(of: { $0 })
  }
}

/// An async sequence of distinct values derived from a store's state; see
/// ``Store/values(of:)``.
public struct StoreValues<Value: Equatable & Sendable>: AsyncSequence, Sendable {
  let subscription: _StoreSubscription<Value>

  /// Delivers the values of a ``StoreValues`` sequence, one at a time.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let subscription: _StoreSubscription<Value>

    /// The next distinct value, waiting for one; `nil` once the iterating task is cancelled.
    public mutating func next() async -> Value? { await subscription.next() }
  }

  /// The sequence's iterator; a sequence can be iterated once.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: subscription) }

  /// Waits for the first value that satisfies `predicate`, which runs on the caller's actor
  /// (so it may read main-actor state).
  ///
  /// ```swift
  /// store.send(.refreshTapped)
  /// let loaded = await store.values(of: \.isLoading).first { !$0 }
  /// ```
  ///
  /// Returns `nil` if the waiting task is cancelled first.
  public func first(
    isolation: isolated (any Actor)? = #isolation,
    where predicate: (Value) -> Bool
  ) async -> Value? {
    while let value = await subscription.next() {
      if predicate(value) { return value }
    }
    return nil
  }
}

/// Delivers a store's derived values to one iterator. The store's core holds it weakly; the
/// sequence and its iterator hold it strongly, and it holds the store through `read`.
///
/// It hears of two kinds of change: a batch of the store ending (`stateDidChange`), and a
/// change to a ``Shared`` value a read used, made anywhere (`sharedValueDidChange`).
final class _StoreSubscription<Value: Equatable & Sendable>: _Subscriber, _SharedListener,
  Sendable
{
  private struct State {
    var last: Value?
    var pending: [Value]
    var waiter: CheckedContinuation<Value?, Never>?
    var isCancelled = false
  }

  private let read: @MainActor @Sendable () -> Value
  private let state: Guarded<State>

  @MainActor
  init(read: @escaping @MainActor @Sendable () -> Value) {
    self.read = read
    self.state = Guarded(State(last: nil, pending: []))
    stateDidChange()
  }

  /// Reads the value, listening to the shared values it reads: a change to one of them, made
  /// anywhere, reads again on the main actor.
  @MainActor
  private func trackedRead() -> Value {
    _SharedReadRecorder.read(listeningWith: self, read)
  }

  nonisolated func sharedValueDidChange() {
    Task { @MainActor [weak self] in self?.stateDidChange() }
  }

  func stateDidChange() {
    let value = trackedRead()
    let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
      guard !state.isCancelled, value != state.last else { return nil }
      state.last = value
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      state.pending.append(value)
      return nil
    }
    waiter?.resume(returning: value)
  }

  func next() async -> Value? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state -> Value?? in
          if !state.pending.isEmpty { return .some(state.pending.removeFirst()) }
          if state.isCancelled { return .some(nil) }
          state.waiter = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        state.isCancelled = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: nil)
    }
  }
}
