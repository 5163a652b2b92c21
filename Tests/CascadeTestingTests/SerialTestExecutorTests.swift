import Cascade
import CascadeTesting
import Foundation
import Testing

/// A feature whose effect records whether its operation ran on the test's executor.
private struct Probe: Reducer {
  struct State: Equatable {}
  enum Action { case start }

  let ranOnExecutor: Guarded<Bool?>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { [ranOnExecutor] _ in
      let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
      let expected = UnownedTaskExecutor(ordinary: SerialTestExecutor.current)
      ranOnExecutor.withLock { $0 = preferred == expected }
    }
  }
}

/// An effect whose operation runs `count` child tasks (optionally through an actor, and with the
/// even ones yielding once first) that each append their number: the order they ran in.
private struct Fan: Reducer {
  struct State: Equatable { var order: [Int] = [] }
  enum Action: Equatable {
    case start(throughActor: Bool, evenOnesYield: Bool)
    case finished([Int])
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .start(throughActor, evenOnesYield):
      return .run { send in
        let order = Guarded<[Int]>([])
        let collector = Collector()
        await withTaskGroup(of: Void.self) { group in
          for number in 1...1_000 {
            group.addTask {
              if evenOnesYield, number.isMultiple(of: 2) { await Task.yield() }
              if throughActor {
                await collector.append(number)
              } else {
                order.withLock { $0.append(number) }
              }
            }
          }
        }
        await send(.finished(throughActor ? await collector.numbers : order.withLock { $0 }))
      }
    case let .finished(order):
      state.order = order
      return .none
    }
  }
}

private actor Collector {
  var numbers: [Int] = []
  func append(_ number: Int) { numbers.append(number) }
}

/// An effect that works for a while, piece by piece, then sends its result.
private struct Worker: Reducer {
  struct State: Equatable { var result = 0 }
  enum Action: Equatable {
    case start
    case done(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        // Each piece of work is a child task, as work an effect splits up usually is.
        var total = 0
        for piece in 0..<200 {
          let base = total
          total = await withTaskGroup(of: Int.self) { group in
            group.addTask {
              (0..<20_000).reduce(base) { ($0 &+ $1 &* piece) % 1_000_003 }
            }
            return await group.next() ?? base
          }
        }
        await send(.done(total))
      }
    case let .done(total):
      state.result = total
      return .none
    }
  }
}

/// The serial executor is scoped to the test's effects: a test store's and a store's effects run
/// on it, and every other task of the process stays on the global pool.
@MainActor
@Suite(.hangGuard)
struct SerialTestExecutorTests {
  @Test func aTestStoresEffectsRunOnTheTestsExecutor() async {
    let ran = Guarded<Bool?>(nil)
    let store = TestStore(initialState: Probe.State()) { Probe(ranOnExecutor: ran) }
    await store.send(.start)
    await store.finish()
    #expect(ran.withLock { $0 } == true)
  }

  @Test func aStoresEffectsRunOnTheTestsExecutor() async {
    let ran = Guarded<Bool?>(nil)
    let store = Store(initialState: Probe.State()) { Probe(ranOnExecutor: ran) }
    await store.send(.start).finish()
    #expect(ran.withLock { $0 } == true)
  }

  // swift-concurrency-extras' MainSerialExecutorTests, for what an effect does: child tasks run
  // in the order they were added, through an actor too, and those that yield go after those
  // that do not. (Its unstructured and detached tasks run on the main thread there; here they
  // are not the test's effects and stay on the pool: see the test below.)

  @Test(arguments: [false, true])
  func anEffectsChildTasksRunInTheOrderTheyWereAdded(throughActor: Bool) async {
    let store = TestStore(initialState: Fan.State()) { Fan() }
    await store.send(.start(throughActor: throughActor, evenOnesYield: false))
    await store.receive(.finished(Array(1...1_000))) { $0.order = Array(1...1_000) }
    await store.finish()
  }

  @Test func childTasksThatYieldRunAfterThoseThatDoNot() async {
    let expected =
      Array(stride(from: 1, through: 999, by: 2)) + Array(stride(from: 2, through: 1_000, by: 2))
    let store = TestStore(initialState: Fan.State()) { Fan() }
    await store.send(.start(throughActor: false, evenOnesYield: true))
    await store.receive(.finished(expected)) { $0.order = expected }
    await store.finish()
    // The same under a real store.
    let live = Store(initialState: Fan.State()) { Fan() }
    await live.send(.start(throughActor: false, evenOnesYield: true)).finish()
    #expect(live.state.order == expected)
  }

  /// A test store's timeout counts only the time the test's effects are idle: an effect that
  /// keeps working for longer than the timeout (a slow machine, ThreadSanitizer) is waited
  /// for, where a wall-clock timeout failed the test.
  @Test func aReceiveWaitsForAnEffectThatKeepsWorking() async {
    let store = TestStore(initialState: Worker.State()) { Worker() }
    store.timeout = .milliseconds(5)
    await store.send(.start)
    let expected = (0..<200).reduce(0) { total, piece in
      (0..<20_000).reduce(total) { ($0 &+ $1 &* piece) % 1_000_003 }
    }
    await store.receive(.done(expected)) { $0.result = expected }
    await store.finish()
  }

  /// In a process where nothing of CascadeTesting has run yet, the first store still finds the
  /// test's executor (it is looked up by type, not registered by a test store or clock).
  @Test func theProcesssFirstStoreRunsItsEffectsOnTheExecutor() async {
    await #expect(processExitsWith: .success) {
      let ran = Guarded<Bool?>(nil)
      await Task { @MainActor in
        let store = Store(initialState: Probe.State()) { Probe(ranOnExecutor: ran) }
        await store.send(.start).finish()
      }.value
      exit(ran.withLock { $0 } == true ? EXIT_SUCCESS : EXIT_FAILURE)
    }
  }

  /// The executor that ran every task of the process on the main thread while a test store
  /// lived would never run this detached task while the main thread is held: it would fail
  /// after the deadline (which only a failing run reaches).
  @Test func otherTasksStayOnTheGlobalPoolWhileATestStoreLives() async {
    let store = TestStore(initialState: Probe.State()) { Probe(ranOnExecutor: Guarded(nil)) }
    let ran = Guarded(false)
    Task.detached { ran.withLock { $0 = true } }
    var time = RunningTime()
    while !ran.withLock({ $0 }), time.read() < .seconds(30) {
      usleep(100)  // holds the main thread on purpose
    }
    #expect(ran.withLock { $0 })
    _ = store
  }

  @Test func oneTestHasOneExecutorAndWorkOutsideTestsAnother() async {
    let executor = SerialTestExecutor.current
    #expect(SerialTestExecutor.current === executor)
    let outside = await Task.detached { SerialTestExecutor.current }.value
    #expect(outside !== executor)
  }
}
