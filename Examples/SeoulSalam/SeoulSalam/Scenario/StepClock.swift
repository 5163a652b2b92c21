import Cascade
import CascadeExampleSupport

/// A clock that moves one step each time the scenario says so: the live listings' change log
/// advances on it, so the scenario decides when each change arrives. Every sleep started
/// before a step ends at that step.
public final class StepClock: Clock, Sendable {
  public typealias Instant = ContinuousClock.Instant

  private struct State {
    var now = ContinuousClock.now
    var sleepers: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          state.sleepers.append(continuation)
          return false
        }
        if cancelled { continuation.resume() }
      }
    } onCancel: {
      // Cancelled sleepers wake at the next step or here; either way they then see cancellation.
      let sleepers = state.withLock { state in
        defer { state.sleepers = [] }
        return state.sleepers
      }
      for sleeper in sleepers { sleeper.resume() }
    }
    try Task.checkCancellation()
  }

  /// The number of tasks waiting for the next step.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Ends every sleep started so far.
  public func step() {
    let sleepers = state.withLock { state in
      defer { state.sleepers = [] }
      state.now = state.now.advanced(by: .seconds(1))
      return state.sleepers
    }
    for sleeper in sleepers { sleeper.resume() }
  }
}
