import Cascade

/// A value that any thread can change and any number of observers follow as a stream, like a
/// database's snapshot listener: what the example apps' live clients are built on.
///
/// Nothing is ever called out while the lock is held: a change is made under the lock, then
/// the new value is yielded to the observers after it is released. One thread delivers at a
/// time and always the latest value, so each observer sees the values in the order they were
/// made (a burst of changes may reach it as its last value only) and never an older value after
/// a newer one. A stream that ends (its task cancelled) leaves without waiting for a delivery,
/// and its `onEnd` runs outside the lock.
///
/// ```swift
/// let counts = SnapshotBroadcast(0)
/// let stream = counts.stream()      // yields 0, then every change
/// counts.update { $0 += 1 }
/// ```
public final class SnapshotBroadcast<Value: Sendable>: Sendable {
  private struct Observer {
    let continuation: AsyncStream<Value>.Continuation
    var delivered: UInt64
  }

  private struct State {
    var value: Value
    var version: UInt64 = 1
    var observers: [UInt64: Observer] = [:]
    var nextID: UInt64 = 0
    var isDelivering = false

    /// The observers that have not seen the latest value, marked as having seen it.
    mutating func takePending() -> [AsyncStream<Value>.Continuation] {
      var pending: [AsyncStream<Value>.Continuation] = []
      for (id, observer) in observers where observer.delivered < version {
        observers[id]?.delivered = version
        pending.append(observer.continuation)
      }
      return pending
    }
  }

  private let state: Locked<State>
  private let newestOnly: Bool

  /// A broadcast of `value`. With `newestOnly`, an observer that is behind keeps only the
  /// newest value (a snapshot listener); otherwise it keeps every value it has not read.
  public init(_ value: Value, newestOnly: Bool = false) {
    self.state = Locked(State(value: value))
    self.newestOnly = newestOnly
  }

  /// The value now.
  public var value: Value { state.withLock { $0.value } }

  /// The number of open streams.
  public var observerCount: Int { state.withLock { $0.observers.count } }

  /// Changes the value with `body` (run under the lock: it must not call out), then sends the
  /// new value to every observer, after the lock is released. Returns what `body` returns.
  @discardableResult
  public func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    let result = try state.withLock { state in
      let result = try body(&state.value)
      state.version &+= 1
      return result
    }
    deliver()
    return result
  }

  /// The value now, then after every change, until the stream's consumer stops (`onEnd` runs
  /// then).
  public func stream(onEnd: @escaping @Sendable () -> Void = {}) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream(
      bufferingPolicy: newestOnly ? .bufferingNewest(1) : .unbounded)
    let id = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.observers[id] = Observer(continuation: continuation, delivered: 0)
      return id
    }
    continuation.onTermination = { [state] _ in
      _ = state.withLock { $0.observers.removeValue(forKey: id) }
      onEnd()
    }
    deliver()
    return stream
  }

  /// Yields the latest value to the observers that have not seen it, until none is behind;
  /// when another thread is already delivering, it will deliver this change too.
  private func deliver() {
    var pending = state.withLock { state -> (Value, [AsyncStream<Value>.Continuation])? in
      guard !state.isDelivering else { return nil }
      state.isDelivering = true
      return (state.value, state.takePending())
    }
    while let (value, observers) = pending {
      for observer in observers { observer.yield(value) }
      pending = state.withLock { state in
        let next = state.takePending()
        guard !next.isEmpty else {
          state.isDelivering = false
          return nil
        }
        return (state.value, next)
      }
    }
  }
}
