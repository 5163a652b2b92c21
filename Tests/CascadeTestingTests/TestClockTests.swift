import Cascade
import CascadeTesting
import Testing

private final class Events: Sendable {
  let log = Guarded<[String]>([])
  func append(_ event: String) { log.withLock { $0.append(event) } }
  var value: [String] { log.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(1)))
struct TestClockTests {
  @Test func sleepersWakeOnlyWhenTimeReachesTheirDeadline() async throws {
    let clock = TestClock()
    let events = Events()
    let sleeper = Task {
      try await clock.sleep(for: .seconds(2))
      events.append("woke at \(clock.now)")
    }
    // Bounded: a regression fails the test instead of spinning forever.
    for _ in 0..<100_000 {
      guard clock.sleeperCount == 0 else { break }
      await Task.yield()
    }
    await clock.advance(by: .seconds(1))
    #expect(events.value.isEmpty)
    #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
    await clock.advance(by: .seconds(1))
    try await sleeper.value
    #expect(events.value == ["woke at 2.0 seconds"])
  }

  @Test func sleepersWakeInDeadlineOrder() async throws {
    let clock = TestClock()
    let events = Events()
    let late = Task {
      try await clock.sleep(until: .init(offset: .seconds(3)))
      events.append("late")
    }
    let early = Task {
      try await clock.sleep(until: .init(offset: .seconds(1)))
      events.append("early")
    }
    // Bounded: a regression fails the test instead of spinning forever.
    for _ in 0..<100_000 {
      guard clock.sleeperCount < 2 else { break }
      await Task.yield()
    }
    await clock.advance(by: .seconds(5))
    try await early.value
    try await late.value
    #expect(events.value == ["early", "late"])
    #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
  }

  @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
    let clock = TestClock()
    await clock.advance(by: .seconds(10))
    try await clock.sleep(until: .init(offset: .seconds(4)))
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellingASleeperThrowsCancellationError() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    // Bounded: a regression fails the test instead of spinning forever.
    for _ in 0..<100_000 {
      guard clock.sleeperCount == 0 else { break }
      await Task.yield()
    }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func runAdvancesUntilNobodySleeps() async throws {
    let clock = TestClock()
    let chain = Task {
      try await clock.sleep(for: .seconds(1))
      try await clock.sleep(for: .seconds(1))
    }
    // Bounded: a regression fails the test instead of spinning forever.
    for _ in 0..<100_000 {
      guard clock.sleeperCount == 0 else { break }
      await Task.yield()
    }
    await clock.run()
    try await chain.value
    #expect(clock.now >= TestClock.Instant(offset: .seconds(2)))
  }

  @Test func immediateClockSkipsTheWaitButMovesTime() async throws {
    let clock = ImmediateClock()
    let start = clock.now
    try await clock.sleep(for: .seconds(60))
    #expect(start.duration(to: clock.now) == .seconds(60))
  }
}
