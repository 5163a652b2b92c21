import Cascade

/// What a `TestStore` still owes its test, kept where the store's nonisolated `deinit` can read
/// it: received actions not yet asserted, and the sends whose effects may still run.
final class TestStoreLedger: Sendable {
  struct Send: Sendable {
    let cascade: _Cascade
    let action: String
    let location: TestLocation
  }

  private struct State {
    var received: [String] = []
    var sends: [Send] = []
    var isExhaustive = true
    var shared: [any _AnySharedRoot] = []
  }

  private let state = Guarded(State())

  func trackShared(_ root: any _AnySharedRoot) { state.withLock { $0.shared.append(root) } }

  func recordSend(_ send: Send) { state.withLock { $0.sends.append(send) } }

  /// Forgets what `finish()` already reported, so the store's release does not report it again.
  func clear() {
    state.withLock {
      $0.sends.removeAll()
      $0.received.removeAll()
    }
  }
  func recordReceived(_ description: String) { state.withLock { $0.received.append(description) } }
  func removeFirstReceived() { state.withLock { _ = $0.received.removeFirst() } }
  /// Keeps only the received actions at `offsets` (ascending).
  func keepReceived(at offsets: [Int]) {
    state.withLock { state in state.received = offsets.map { state.received[$0] } }
  }
  func setExhaustive(_ isExhaustive: Bool) { state.withLock { $0.isExhaustive = isExhaustive } }

  var isExhaustive: Bool { state.withLock { $0.isExhaustive } }
  var received: [String] { state.withLock { $0.received } }

  /// The sends whose effects are still running, oldest first.
  var runningSends: [Send] {
    state.withLock { state in
      state.sends.removeAll { !$0.cascade.isRunning }
      return state.sends
    }
  }

  /// Failures owed at the end of a test: unreceived actions and running effects.
  func outstandingFailures(endingAt location: TestLocation) -> [(String, TestLocation)] {
    guard isExhaustive else { return [] }
    var failures: [(String, TestLocation)] = []
    let received = self.received
    if !received.isEmpty {
      failures.append(
        (
          """
          The store received \(received.count) unexpected action\(received.count == 1 ? "" : "s") \
          that the test never asserted:

          \(received.map { "  • " + $0 }.joined(separator: "\n"))

          Assert each with 'await store.receive(...)', or call 'await \
          store.skipReceivedActions()'.
          """, location
        ))
    }
    let shared = state.withLock { $0.shared }
    for root in shared {
      guard let diff = root._baselineDiff() else { continue }
      root._recordBaseline()
      failures.append(
        (
          """
          Shared state changed after the last assertion, and the test never asserted it \
          (\(root._keyDescription)):

          \(diff.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))

          (Before: −, After: +)

          Assert the change in the 'send' or 'receive' that made it, or with \
          'store.assert { ... }' when something outside the store made it.
          """, location
        ))
    }
    for send in runningSends {
      failures.append(
        (
          """
          An effect returned for this action is still running: \(send.action)

          Every effect must finish before the end of the test. Make it finish (advance the test \
          clock, send the action that stops it, cancel it), or end the test with \
          'await store.skipInFlightEffects()'.
          """, send.location
        ))
    }
    return failures
  }
}
