import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

private struct Failure: Error, Equatable {}

@Suite(.hangGuard)
struct ConcurrencyExtrasTests {
  @Test func resultCatchingKeepsAnAsyncValue() async throws {
    let result = await Result { () async throws -> Int in
      await Task.yield()
      return 42
    }
    #expect(try result.get() == 42)
  }

  @Test func resultCatchingKeepsAnAsyncError() async {
    let result = await Result { () async throws -> Int in
      await Task.yield()
      throw Failure()
    }
    #expect(throws: Failure.self) { try result.get() }
  }

  @Test func taskNeverWaitsUntilCancelledThenThrowsCancellation() async {
    // What happened, in order: the task must still be inside `Task.never()` when the test
    // cancels it, so "cancelling" comes before "returned" (a `never()` that returned or threw
    // at once would put "returned" first).
    let log = Guarded<[String]>([])
    let started = Latch()
    let task = Task {
      defer { log.withLock { $0.append("returned") } }
      started.signal()
      try await Task.never()
    }
    await started.wait(for: 1)
    // Every chance to return before it is cancelled.
    for _ in 0..<50 { await Task.yield() }
    log.withLock { $0.append("cancelling") }
    task.cancel()
    let outcome = await withDeadline("the cancelled Task.never() to throw", resultOf: task)
    #expect(throws: CancellationError.self) { try outcome?.get() }
    #expect(log.withLock { $0 } == ["cancelling", "returned"])
  }

  @Test func taskNeverInACancelledTaskThrowsAtOnce() async {
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await Task.never()
    }
    let outcome = await withDeadline("Task.never() in a cancelled task to throw", resultOf: task)
    #expect(throws: CancellationError.self) { try outcome?.get() }
  }

  @MainActor
  @Test func anEffectWaitingOnTaskNeverEndsWhenCancelled() async {
    let store = Store(initialState: 0) {
      Reduce<Int, Bool> { state, start in
        guard start else { return .cancel(id: "never") }
        return .run { _ in try await Task.never() }.cancellable(id: "never")
      }
    }
    let task = store.send(true)
    #expect((task.cascade?.isRunning ?? false))
    store.send(false)
    await task.finish()
    #expect(!(task.cascade?.isRunning ?? false))
  }

  @Test func anyHashableSendableComparesWrappedValues() {
    #expect(AnyHashableSendable(1) == AnyHashableSendable(1))
    #expect(AnyHashableSendable(1) != AnyHashableSendable(2))
    #expect(AnyHashableSendable(1) != AnyHashableSendable("1"))
    #expect(AnyHashableSendable(AnyHashableSendable("a")) == AnyHashableSendable("a"))
    #expect(Set([AnyHashableSendable(1), 1, "one", "one"]).count == 2)
    #expect(AnyHashableSendable("id").description == "id")
    #expect(AnyHashableSendable(3).base as? Int == 3)
  }

  @MainActor
  @Test func anyHashableSendableIsACancelIDForGenericIDs() async {
    func cancelID<ID: Hashable & Sendable>(_ id: ID) -> AnyHashableSendable {
      AnyHashableSendable(id)
    }
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { _, id in
        id >= 0
          ? .run { _ in try await Task.never() }.cancellable(id: cancelID(id))
          : .cancel(id: cancelID(-id))
      }
    }
    let one = store.send(1)
    let two = store.send(2)
    store.send(-1)
    await one.finish()
    #expect((two.cascade?.isRunning ?? false))
    store.send(-2)
    await two.finish()
  }
}

@Suite(.hangGuard)
struct AsyncStreamExtrasTests {
  private struct Failure: Error {}

  @Test func finishedStreamsEndAtOnce() async throws {
    var count = 0
    for await _ in AsyncStream<Int>.finished { count += 1 }
    for try await _ in AsyncThrowingStream<Int, any Error>.finished() { count += 1 }
    #expect(count == 0)
    await #expect(throws: Failure.self) {
      for try await _ in AsyncThrowingStream<Int, any Error>.finished(throwing: Failure()) {}
    }
  }

  @Test func aNeverStreamWaitsUntilItsTaskIsCancelled() async {
    let started = Guarded(false)
    let task = Task {
      started.withLock { $0 = true }
      for await _ in AsyncStream<Int>.never {}
      return Task.isCancelled
    }
    await pollUntil { started.withLock { $0 } }
    for _ in 0..<50 { await Task.yield() }
    task.cancel()
    #expect(await withDeadline("the cancelled iteration to end", resultOf: task)?.get() == true)
  }
}

// Issue 50, point 4: `Result { try await … }` compiles from a main-actor context (before, the
// closure was sent off the actor: "sending value of non-Sendable type … risks causing data
// races"), and inside an effect.

/// A count a main-actor test keeps: not `Sendable`, so a closure capturing it can only run
/// where it was made.
private final class Tally {
  var value = 40
}

private func fetchNumber(_ n: Int) async throws -> Int {
  await Task.yield()
  guard n >= 0 else { throw Failure() }
  return n
}

/// A feature whose effect sends its response as a `Result`.
private struct NumberFact: Reducer {
  struct State: Equatable { var fact: Int? = nil, failed = false }
  enum Action: Equatable {
    case fetch(Int)
    case response(Int?)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .fetch(n):
      return .run { send in
        let result = await Result { try await fetchNumber(n) }
        await send(.response(try? result.get()))
      }
    case let .response(fact):
      state.fact = fact
      state.failed = fact == nil
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct ResultOnTheMainActorTests {
  var base = 2

  @Test func resultCatchingRunsOnTheCallersActorWithMainActorValues() async throws {
    let tally = Tally()
    let result = await Result { try await fetchNumber(tally.value) + base }
    #expect(try result.get() == 42)
    let failure = await Result { try await fetchNumber(-tally.value) }
    #expect(throws: Failure.self) { try failure.get() }
  }

  @Test func resultCatchingInsideAnEffectInAStore() async {
    let store = Store(initialState: NumberFact.State()) { NumberFact() }
    await store.send(.fetch(7)).finish()
    #expect(store.state == NumberFact.State(fact: 7))
    await store.send(.fetch(-1)).finish()
    #expect(store.state == NumberFact.State(fact: nil, failed: true))
  }

  @Test func resultCatchingInsideAnEffectInATestStore() async {
    let store = TestStore(initialState: NumberFact.State()) { NumberFact() }
    await store.send(.fetch(7))
    await store.receive(.response(7)) { $0.fact = 7 }
    await store.send(.fetch(-1))
    await store.receive(.response(nil)) {
      $0.fact = nil
      $0.failed = true
    }
  }
}
