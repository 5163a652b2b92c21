import Cascade
import CascadeTestSupport
import Foundation
import Synchronization
import Testing

@testable import CascadeTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A clock a test moves by hand, for ``RunningTime``'s `now`.
private final class HandClock: Sendable {
  private let start = ContinuousClock.now
  private let offset = Mutex(Duration.zero)

  func now() -> ContinuousClock.Instant { start + offset.withLock { $0 } }
  func move(by duration: Duration) { offset.withLock { $0 += duration } }
}

/// The deadlines of this package's tests (`withDeadline`, `pollUntil`, a `TestStore`'s waits)
/// count the time the process runs, not the wall clock's: CI once stood still for about eight
/// minutes in the middle of `swift test`, and three waits that take milliseconds failed because
/// their deadlines woke with them.
@Suite(.hangGuard)
struct RunningTimeTests {
  @Test func stepsOfAProcessThatRunsCountInFull() {
    let clock = HandClock()
    var time = RunningTime(now: clock.now)
    for _ in 0..<8 {
      clock.move(by: .milliseconds(300))
      time.read()
    }
    #expect(time.elapsed == .milliseconds(2_400))
  }

  @Test func aPauseCountsAtMostOneStep() {
    let clock = HandClock()
    var time = RunningTime(now: clock.now)
    clock.move(by: .milliseconds(200))
    time.read()
    clock.move(by: .seconds(470))  // the machine stood still
    #expect(time.read() == .milliseconds(200) + RunningTime.longestStep)
    clock.move(by: .milliseconds(100))
    #expect(time.read() == .milliseconds(1_300))
  }

  @Test func aSleepThatAPauseInterruptsStillSleepsItsLimitOfRunningTime() async throws {
    let clock = HandClock()
    let asked = Mutex<[Duration]>([])
    try await RunningTime.sleep(for: .seconds(2), now: clock.now) { duration in
      let first = asked.withLock { asked in
        asked.append(duration)
        return asked.count == 1
      }
      // The first step is where the process stood still for eight minutes.
      clock.move(by: first ? .seconds(480) : duration)
    }
    // The pause counted one second; four more steps of a quarter of a second make the two.
    #expect(asked.withLock { $0 } == Array(repeating: .milliseconds(250), count: 5))
  }

  @Test func aCancelledSleepEndsAtOnce() async {
    let sleeper = Task { try await RunningTime.sleep(for: .seconds(600)) }
    sleeper.cancel()
    let result = await withDeadline("the cancelled sleep to end", resultOf: sleeper)
    #expect(throws: CancellationError.self) { try result?.get() }
  }

  /// The process really stops (SIGSTOP) for four seconds while three waits with limits of three
  /// and a half (`withDeadline`, `pollUntil` and the `TestStore`'s `withTimeout`) wait for work
  /// that ends a third of a second after the process goes on: all three succeed, having counted
  /// about two seconds. On the wall clock their deadlines pass during the stop and fail the test
  /// as the process wakes (checked by putting `Task.sleep` back in each).
  @Test func aStoppedProcessDoesNotUseUpAWaitsDeadline() async throws {
    #if os(Linux) || os(macOS)
      let stop: Duration = .seconds(4)
      let limit: Duration = .milliseconds(3_500)
      let stoppedAt = Guarded<ContinuousClock.Instant?>(nil)
      let done = Guarded(false)
      // Ends a third of a second after the stop's end, and in any case within 20 s.
      let work = Task.detached {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(20) {
          if let stoppedAt = stoppedAt.withLock({ $0 }),
            ContinuousClock.now >= stoppedAt + stop + .milliseconds(300)
          {
            break
          }
          try? await Task.sleep(for: .milliseconds(20))
        }
        done.withLock { $0 = true }
        return true
      }
      async let polled = pollUntil("the work's flag", timeout: limit) { done.withLock { $0 } }
      async let finished = withTimeout(limit) { _ = await work.value }
      async let resumed = withDeadline("the work after the stop", within: limit, valueOf: work)
      try await Task.sleep(for: .milliseconds(50))  // the three are waiting
      let pid = getpid()
      let waker = Process()
      waker.executableURL = URL(fileURLWithPath: "/bin/sh")
      // SIGCONT after the stop, and again later should the first one come before the stop.
      waker.arguments = ["-c", "sleep 4; kill -CONT \(pid); sleep 1; kill -CONT \(pid)"]
      stoppedAt.withLock { $0 = .now }
      try waker.run()
      kill(pid, SIGSTOP)
      #expect(await resumed == true)
      #expect(await polled)
      #expect(await finished)
      waker.waitUntilExit()
    #endif
  }
}
