import Cascade
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

/// The sleepers here are tasks of the test's own, started on its ``SerialTestExecutor`` (as a
/// store's effects are) so that the clock wakes them in turn; the cancellation race runs on the
/// global pool on purpose.
@Suite(.hangGuard)
struct TestClockTests {
  @Test func sleepersWakeOnlyWhenTimeReachesTheirDeadline() async throws {
    let clock = TestClock()
    let events = Box<[String]>([])
    let sleeper = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .seconds(2))
      events.update { $0.append("woke at \(clock.now)") }
    }
    await pollUntil { clock.sleeperCount > 0 }
    await clock.advance(by: .seconds(1))
    #expect(events.value.isEmpty)
    #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
    await clock.advance(by: .seconds(1))
    try await withDeadline("the sleeper to wake", valueOf: sleeper)
    #expect(events.value == ["woke at 2.0 seconds"])
  }

  @Test func sleepersWakeInDeadlineOrder() async throws {
    let clock = TestClock()
    let events = Box<[String]>([])
    let late = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(until: .init(offset: .seconds(3)))
      events.update { $0.append("late") }
    }
    let early = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(until: .init(offset: .seconds(1)))
      events.update { $0.append("early") }
    }
    await pollUntil { clock.sleeperCount >= 2 }
    await clock.advance(by: .seconds(5))
    try await withDeadline("the early sleeper to wake", valueOf: early)
    try await withDeadline("the late sleeper to wake", valueOf: late)
    #expect(events.value == ["early", "late"])
    #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
  }

  @Test func runWithATimeoutStopsANeverEndingTimerAndFails() async {
    let clock = TestClock()
    let ticks = Guarded(0)
    let timer = Task(executorPreference: SerialTestExecutor.current) {
      while true {
        try await clock.sleep(for: .seconds(1))
        ticks.withLock { $0 += 1 }
      }
    }
    await pollUntil { clock.sleeperCount > 0 }
    let line = #line + 2
    await withKnownIssue {
      await clock.run(timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("gave up")
        && issue.sourceLocation?.line == line
    }
    // It gave up only after its 500 advances, whatever the timeout.
    #expect(ticks.withLock { $0 } >= TestClock.advancesBeforeGivingUp)
    // The timer's sleep was cancelled: its task ends without being cancelled itself.
    let outcome = await withDeadline("the timer's task to end", resultOf: timer)
    #expect(throws: CancellationError.self) { try outcome?.get() }
    #expect(clock.sleeperCount == 0)
  }

  @Test func aSlowMachineNeverCutsAShortSchedule() async throws {
    // A timeout of zero has always passed, as it has on a machine that stalled for longer than
    // the timeout: a schedule of fewer than 500 wake-ups still runs to its end.
    let clock = TestClock()
    let sleeper = Task(executorPreference: SerialTestExecutor.current) {
      for _ in 0..<30 { try await clock.sleep(for: .seconds(1)) }
    }
    await pollUntil { clock.sleeperCount > 0 }
    await clock.run(timeout: .zero)
    try await sleeper.value
    #expect(clock.now == TestClock.Instant(offset: .seconds(30)))
  }

  @Test func runFinishesAFiniteScheduleWithinItsTimeout() async throws {
    let clock = TestClock()
    let sleeper = Task(executorPreference: SerialTestExecutor.current) {
      for _ in 0..<100 { try await clock.sleep(for: .seconds(1)) }
    }
    await pollUntil { clock.sleeperCount > 0 }
    await clock.run(timeout: .seconds(30))
    try await withDeadline("the sleeper to wake", valueOf: sleeper)
    #expect(clock.now == TestClock.Instant(offset: .seconds(100)))
  }

  @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
    let clock = TestClock()
    await clock.advance(by: .seconds(10))
    try await clock.sleep(until: .init(offset: .seconds(4)))
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellingASleeperThrowsCancellationError() async {
    let clock = TestClock()
    let sleeper = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .seconds(1))
    }
    await pollUntil { clock.sleeperCount > 0 }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) {
      try await withDeadline("the cancelled sleeper to throw", valueOf: sleeper)
    }
    #expect(clock.sleeperCount == 0)
  }

  @Test func runAdvancesUntilNobodySleeps() async throws {
    let clock = TestClock()
    let chain = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .seconds(1))
      try await clock.sleep(for: .seconds(1))
    }
    await pollUntil { clock.sleeperCount > 0 }
    await clock.run()
    try await withDeadline("the chain of sleeps to end", valueOf: chain)
    #expect(clock.now >= TestClock.Instant(offset: .seconds(2)))
  }

  // MARK: swift-clocks' TestClockTests, ported

  @Test func runWakesASleeperAndLetsItFinish() async throws {
    let clock = TestClock()
    let events = Box<[String]>([])
    let task = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .seconds(1))
      events.update { $0.append("done") }
    }
    await clock.run()
    #expect(events.value == ["done"])
    try await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func aZeroSleepEndsOnAnAdvanceOfZero() async throws {
    let clock = TestClock()
    let events = Box<[String]>([])
    let task = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .zero)
      events.update { $0.append("done") }
    }
    await clock.advance()
    #expect(events.value == ["done"])
    try await withDeadline("the task on the test clock to end", valueOf: task)
  }

  /// As swift-clocks' test clock: a sleep until now (or for zero) waits for the next advance,
  /// so an effect that sleeps for zero still lets the test act before it goes on; only a
  /// deadline already past returns at once.
  @MainActor
  @Test func aSleepUntilNowWaitsForTheNextAdvance() async throws {
    let clock = TestClock()
    let events = Box<[String]>([])
    let task = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .zero)
      events.update { $0.append("woke") }
    }
    // The task's jobs were queued on the main thread before these yields: it has reached its
    // sleep (or, before, gone past it) when they return.
    for _ in 0..<10 { await Task.yield() }
    #expect(events.value.isEmpty)
    #expect(clock.sleeperCount == 1)
    await clock.advance()
    #expect(events.value == ["woke"])
    try await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func oneAdvanceWakesEverySleepOfALoopInTurn() async throws {
    let clock = TestClock()
    let count = Guarded(0)
    let task = Task(executorPreference: SerialTestExecutor.current) {
      for _ in 1...200 {
        try await clock.sleep(for: .seconds(1))
        count.withLock { $0 += 1 }
      }
    }
    await clock.advance(by: .seconds(200))
    #expect(count.withLock { $0 } == 200)
    try await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func sleepUntilDeadlinesComputedFromNowAreWokenInTurn() async throws {
    let clock = TestClock()
    let count = Guarded(0)
    let task = Task(executorPreference: SerialTestExecutor.current) {
      for _ in 1...200 {
        try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
        count.withLock { $0 += 1 }
      }
    }
    await clock.advance(by: .seconds(200))
    #expect(count.withLock { $0 } == 200)
    try await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func runEndsOnlyWhenNoTaskSleeps() async throws {
    let clock = TestClock()
    let count = Guarded(0)
    let task = Task(executorPreference: SerialTestExecutor.current) {
      for _ in 1...200 {
        try await clock.sleep(for: .seconds(1))
        count.withLock { $0 += 1 }
      }
    }
    await clock.run()
    #expect(count.withLock { $0 } == 200)
    #expect(clock.now == TestClock.Instant(offset: .seconds(200)))
    try await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func aTimerTicksOncePerIntervalAdvanced() async {
    let clock = TestClock()
    let count = Guarded(0)
    let task = Task(executorPreference: SerialTestExecutor.current) {
      for await _ in clock.timer(interval: .seconds(1)).prefix(100) {
        count.withLock { $0 += 1 }
      }
    }
    await clock.advance(by: .seconds(100))
    #expect(count.withLock { $0 } == 100)
    _ = await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func aTimerKeepsItsDeadlinesWhenItsBodyIsSlow() async {
    let clock = TestClock()
    let ticks = Box<[String]>([])
    let task = Task(executorPreference: SerialTestExecutor.current) {
      for await tick in clock.timer(interval: .seconds(1)).prefix(3) {
        ticks.update { $0.append("\(tick) at \(clock.now)") }
        // The body takes half an interval of the clock's time: the next deadline holds.
        try? await clock.sleep(for: .milliseconds(500))
      }
    }
    await clock.advance(by: .milliseconds(3_500))
    #expect(ticks.value == ["1 at 1.0 seconds", "2 at 2.0 seconds", "3 at 3.0 seconds"])
    _ = await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func aTimerOnTheClockDependencyExistential() async {
    let testClock = TestClock()
    let clock: any Clock<Duration> = testClock
    let count = Guarded(0)
    let task = Task(executorPreference: SerialTestExecutor.current) {
      for await _ in clock.timer(interval: .seconds(1)).prefix(5) { count.withLock { $0 += 1 } }
    }
    await testClock.advance(by: .seconds(5))
    #expect(count.withLock { $0 } == 5)
    _ = await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func aCancelledTimerEnds() async {
    let clock = TestClock()
    let task = Task(executorPreference: SerialTestExecutor.current) {
      var ticks = 0
      for await _ in clock.timer(interval: .seconds(1)) { ticks += 1 }
      return ticks
    }
    await clock.advance(by: .seconds(2))
    task.cancel()
    #expect(await task.value == 2)
  }

  @Test func cancellingRemovesTheSleeper() async {
    let clock = TestClock()
    let count = Guarded(0)
    let task = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .seconds(1))
      count.withLock { $0 += 1 }
    }
    // Asleep first: a task cancelled before it sleeps never registers (the next test).
    await pollUntil { clock.sleeperCount == 1 }
    task.cancel()
    await #expect(throws: CancellationError.self) {
      try await withDeadline("the cancelled task to throw", valueOf: task)
    }
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(count.withLock { $0 } == 0)
  }

  @Test func aTaskCancelledBeforeItSleepsNeverRegisters() async {
    let clock = TestClock()
    let task = Task(executorPreference: SerialTestExecutor.current) {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) {
      try await withDeadline("the cancelled task to throw", valueOf: task)
    }
    #expect(clock.sleeperCount == 0)
  }

  /// A cancellation can land between the sleep's cancellation check and the registration of
  /// its sleeper. It must still end the sleep: every cancelled sleep throws, and none is left
  /// for the clock to wake.
  @Test func aSleepCancelledWhileItRegistersStillThrows() async {
    let clock = TestClock()
    let notCancelled = Guarded(0)
    for _ in 0..<2_000 {
      let sleeper = Task {
        do {
          try await clock.sleep(for: .seconds(1))
          notCancelled.withLock { $0 += 1 }
        } catch {}
      }
      // Cancelled from a thread of its own, racing the sleep on whatever thread it runs.
      await withCheckedContinuation { cancelled in
        Thread.detachNewThread {
          sleeper.cancel()
          cancelled.resume()
        }
      }
      // A sleeper registered after its cancellation would be woken here, as if not cancelled.
      await clock.advance(by: .seconds(1))
      _ = await withDeadline("the sleeper to wake", valueOf: sleeper)
    }
    #expect(notCancelled.withLock { $0 } == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func advancingNeverMovesTimeBackwards() async {
    let clock = TestClock()
    await clock.advance(by: .seconds(10))
    await clock.advance(to: .init(offset: .seconds(5)))
    #expect(clock.now == TestClock.Instant(offset: .seconds(10)))
    await clock.advance(by: .seconds(-5))
    #expect(clock.now == TestClock.Instant(offset: .seconds(10)))
  }

  @Test func sleepsInsideAnActorAreWokenInTurn() async {
    let clock = TestClock()
    let worker = Worker()
    let task = Task(executorPreference: SerialTestExecutor.current) {
      try await worker.sleep(on: clock, times: 200)
    }
    await clock.advance(by: .seconds(200))
    #expect(await worker.count == 200)
    _ = try? await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func aTimerInsideAnActorTicksInTurn() async {
    let clock = TestClock()
    let worker = Worker()
    let task = Task(executorPreference: SerialTestExecutor.current) {
      await worker.tick(on: clock, times: 200)
    }
    await clock.advance(by: .seconds(200))
    #expect(await worker.count == 200)
    _ = await withDeadline("the task on the test clock to end", valueOf: task)
  }

  @Test func consecutiveSleepsOfOneTaskAllEndInOneAdvance() async throws {
    let clock = TestClock()
    let task = Task(executorPreference: SerialTestExecutor.current) {
      var count = 0
      for _ in 1...5 {
        try await clock.sleep(for: .seconds(1))
        count += 1
      }
      return count
    }
    await clock.advance(by: .seconds(5))
    #expect(try await task.value == 5)
  }

  @Test func runWakesTasksInDeadlineOrderNotStartOrder() async {
    let clock = TestClock()
    let events = Box<[String]>([])
    let late = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .seconds(2))
      events.update { $0.append("2") }
    }
    let early = Task(executorPreference: SerialTestExecutor.current) {
      try await clock.sleep(for: .seconds(1))
      events.update { $0.append("1") }
    }
    await clock.run()
    #expect(events.value == ["1", "2"])
    _ = (late, early)
  }

  @Test func immediateClockSkipsTheWaitButMovesTime() async throws {
    let clock = ImmediateClock()
    let start = clock.now
    try await clock.sleep(for: .seconds(60))
    #expect(start.duration(to: clock.now) == .seconds(60))
  }
}

private actor Worker {
  var count = 0

  func sleep(on clock: TestClock, times: Int) async throws {
    for _ in 1...times {
      try await clock.sleep(for: .seconds(1))
      count += 1
    }
  }

  func tick(on clock: TestClock, times: Int) async {
    for await _ in clock.timer(interval: .seconds(1)).prefix(times) { count += 1 }
  }
}
