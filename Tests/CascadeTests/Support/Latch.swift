@testable import Cascade

/// Counts events from any task and lets a test await a number of them, with no wall-clock
/// waiting: the wait resumes exactly when the count is reached.
final class Latch: Sendable {
  private struct State {
    var count = 0
    var waiters: [(Int, CheckedContinuation<Void, Never>)] = []
  }
  private let state = Guarded(State())

  var count: Int { state.withLock { $0.count } }

  func signal() {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count += 1
      let count = state.count
      let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
      state.waiters.removeAll { $0.0 <= count }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// Waits until at least `target` signals have arrived.
  func wait(for target: Int) async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state -> Bool in
        if state.count >= target { return true }
        state.waiters.append((target, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }
}

/// A value shared with effects in a test.
final class Box<Value: Sendable>: Sendable {
  private let storage: Guarded<Value>
  init(_ value: Value) { storage = Guarded(value) }
  var value: Value { storage.withLock { $0 } }
  func update(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}

