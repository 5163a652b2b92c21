import CascadeTesting
import Foundation
import Testing

@testable import Cascade

/// Runs `body`, failing the test (instead of hanging CI) if it has not finished after
/// `limit`: a deadlock shows up as a failure naming what was stuck. The default limit is far
/// above the work's time on a slow, loaded machine under ThreadSanitizer (about 5 s there),
/// so only a deadlock reaches it.
private func withWatchdog(
  _ what: String, limit: Duration = .seconds(300), _ body: @escaping @Sendable () async -> Void
) async {
  let finished = await withTimeout(limit, body)
  if !finished { Issue.record("Watchdog: \(what) did not finish within \(limit); a deadlock?") }
}

/// Counts every action it reduces, in the store's state and in a shared tally.
private struct Counted: Reducer {
  struct State: Equatable, Sendable {
    var reduced = 0
    @Shared var tally: Int
  }
  enum Action: Sendable {
    case bump
    case bumpFromEffect
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .bump:
      state.reduced += 1
      return .none
    case .bumpFromEffect:
      state.reduced += 1
      return .run { [tally = state.$tally] send in
        tally.withLock { $0 += 1 }
        await send(.bump)
      }
    }
  }
}

@Suite(.hangGuard)
struct StressTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  /// Many tasks send into two stores, their effects send back and write a shared tally, and
  /// other tasks write the same tally directly, all at once: every action and every update is
  /// counted at the end.
  @Test func concurrentSendersAndWritersLoseNothing() async {
    let senders = 8
    let perSender = 2_000
    let writers = 4
    let perWriter = 20_000
    await withWatchdog("8 senders, 2 stores, 4 shared writers") {
      let tally = Shared(value: 0)
      let stores = await MainActor.run {
        (0..<2).map { _ in
          Store(initialState: Counted.State(tally: tally)) { Counted() }
        }
      }
      await withTaskGroup(of: Void.self) { group in
        for sender in 0..<senders {
          group.addTask {
            for step in 0..<perSender {
              await MainActor.run {
                let store = stores[(sender + step) % 2]
                _ = store.send(step.isMultiple(of: 2) ? .bump : .bumpFromEffect)
              }
            }
          }
        }
        for _ in 0..<writers {
          group.addTask {
            for _ in 0..<perWriter { tally.withLock { $0 += 1 } }
          }
        }
      }
      // Effects still running finish with their store's tasks.
      for store in stores {
        let task = await MainActor.run { store.send(.bump) }
        await task.finish()
      }
      // Give effects started by earlier sends time to end (bounded by the watchdog).
      while await MainActor.run(body: { stores.map(\.state.reduced).reduce(0, +) })
        < senders * perSender + senders * perSender / 2 + 2, !Task.isCancelled
      {
        await Task.yield()
      }
      let reduced = await MainActor.run { stores.map(\.state.reduced).reduce(0, +) }
      let fromEffects = senders * perSender / 2
      // Each send once, each effect's follow-up once, and the two final bumps.
      #expect(reduced == senders * perSender + fromEffects + 2)
      #expect(tally.wrappedValue == writers * perWriter + fromEffects)
    }
  }

  @Test func theWatchdogFailsAStuckOperationInsteadOfHanging() async {
    await withKnownIssue {
      await withWatchdog("a sleep", limit: .milliseconds(50)) {
        try? await Task.sleep(for: .seconds(5))
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Watchdog: a sleep did not finish") }
    }
  }
}
