import CascadeTestSupport
import Testing

@testable import Cascade

/// Counts events from any task and lets a test await a number of them, with no wall-clock
/// waiting: the wait resumes exactly when the count is reached.
final class Latch: Sendable {
  private struct State {
    var count = 0
    var nextWaiter = 0
    var waiters: [(target: Int, id: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }
  private let state = Guarded(State())

  var count: Int { state.withLock { $0.count } }

  func signal() {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count += 1
      let count = state.count
      let ready = state.waiters.filter { $0.target <= count }.map(\.continuation)
      state.waiters.removeAll { $0.target <= count }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// Waits until at least `target` signals have arrived, or the waiting task is cancelled; a
  /// signal still missing after `testDeadline` fails the test at the caller's line.
  func wait(for target: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
    await withDeadline("signal \(target) of a latch", sourceLocation: sourceLocation) {
      await waitUntilCancelled(for: target)
    }
  }

  private func waitUntilCancelled(for target: Int) async {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let done = state.withLock { state -> Bool in
          if state.count >= target || Task.isCancelled { return true }
          state.waiters.append((target, id, continuation))
          return false
        }
        if done { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        defer { state.waiters.removeAll { $0.id == id } }
        return state.waiters.first { $0.id == id }?.continuation
      }
      waiter?.resume()
    }
  }
}
