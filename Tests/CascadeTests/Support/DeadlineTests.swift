import Cascade
import CascadeTestSupport
import Testing

private struct Failure: Error, Equatable {}

/// `withDeadline`, which every wait of these tests goes through: a wait that never ends fails
/// the test at its deadline, naming what it waited for, instead of hanging the run. The suite's
/// own limit is a minute, so that a broken deadline fails here too rather than at `.hangGuard`.
@Suite(.timeLimit(.minutes(1)))
struct DeadlineTests {
  @Test func aWaitThatNeverEndsFailsAtItsDeadlineNamingWhatItAwaited() async {
    let start = ContinuousClock.now
    await withKnownIssue {
      await withDeadline("a value from a stream that never sends", within: .milliseconds(50)) {
        for await _ in AsyncStream<Int>.never {}
      }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(
        "for a value from a stream that never sends: gave up")
    }
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test func aWaitThatEndsInTimeGivesItsValueAndEndsItsWatchdog() async {
    let start = ContinuousClock.now
    let value = await withDeadline("a value at once") {
      await Task.yield()
      return 42
    }
    #expect(value == 42)
    // The watchdog, sleeping for a minute, was cancelled: the wait did not last its deadline.
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test func anErrorFromTheWaitIsThrownAsItIs() async {
    await #expect(throws: Failure.self) {
      try await withDeadline("a failure") { () async throws(Failure) -> Int in throw Failure() }
    }
  }

  @MainActor
  @Test func theWaitRunsOnTheCallersActorAndMayKeepItsState() async {
    var iterator = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.yield(2)
      continuation.finish()
    }.makeAsyncIterator()
    #expect(
      await withDeadline("the first value") { await iterator.next(isolation: #isolation) } == 1)
    #expect(
      await withDeadline("the second value") { await iterator.next(isolation: #isolation) } == 2)
  }

  @Test func aTaskThatIgnoresCancellationFailsAtTheDeadlineOfItsResult() async {
    let release = Box(false)
    let stubborn = Task {
      // Ends only when released, cancelled or not.
      while !release.value { try? await Task.sleep(for: .milliseconds(5)) }
      return 1
    }
    stubborn.cancel()
    await withKnownIssue {
      let outcome = await withDeadline(
        "a task that ignores cancellation", within: .milliseconds(50), resultOf: stubborn)
      #expect(outcome == nil)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(
        "for a task that ignores cancellation: gave up")
    }
    release.update { $0 = true }
    #expect(await withDeadline("the released task", resultOf: stubborn)?.get() == 1)
  }
}
