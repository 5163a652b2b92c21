import Cascade
import Foundation

// W10: what shared state costs. The floors are the same read or increment on a plain value.

/// A counter whose count is shared, incremented by a reducer.
struct SharedCounter: Reducer {
  struct State: Equatable {
    @Shared var count: Int
  }
  enum Action { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.$count.withLock { $0 &+= 1 }
    return .none
  }
}

extension Workloads {
  static func w10() -> [Result] {
    let n = 1_000_000
    var floorState = Counter.State()
    let readFloor = measure(operations: n) {
      var sum = 0
      for index in 0..<n { sum &+= floorRead(&floorState, index) }
      return sum
    }
    let writeFloor = counterFloor(n)

    let shared = Shared(value: 0)
    let read = measure(operations: n) {
      var sum = 0
      for index in 0..<n { sum &+= shared.wrappedValue &+ index }
      return sum
    }
    let readAllocs = Allocations.perOperation(10_000) {
      for _ in 0..<10_000 { _ = shared.wrappedValue }
    }
    let write = measure(operations: n) {
      for _ in 0..<n { shared.withLock { $0 &+= 1 } }
      return shared.wrappedValue
    }
    let writeAllocs = Allocations.perOperation(10_000) {
      for _ in 0..<10_000 { shared.withLock { $0 &+= 1 } }
    }

    // A persisted value in memory-backed storage, saved at most once a minute: the cost of
    // scheduling the save, not of writing the file.
    let persisted = withDependencies {
      $0.sharedStorage = .disk(watchInterval: nil)
    } operation: {
      Shared(
        wrappedValue: 0,
        .fileStorage(
          FileManager.default.temporaryDirectory.appending(
            path: "cascade-benchmark-\(ProcessInfo.processInfo.processIdentifier).json"),
          saveInterval: .seconds(60)))
    }
    let persistedWrite = measure(operations: n) {
      for _ in 0..<n { persisted.withLock { $0 &+= 1 } }
      return persisted.wrappedValue
    }

    let store = Store(initialState: SharedCounter.State(count: Shared(value: 0))) {
      SharedCounter()
    }
    let send = measure(operations: n) {
      for _ in 0..<n { store.send(.increment) }
      return store.state.count
    }
    let sendAllocs = Allocations.perOperation(10_000) {
      for _ in 0..<10_000 { store.send(.increment) }
    }
    return [
      result("W10r", "read a Shared value", read, readFloor, allocs: readAllocs),
      result("W10w", "write a Shared value (withLock)", write, writeFloor, allocs: writeAllocs),
      result(
        "W10f", "write a file-stored Shared (save throttled)", persistedWrite, writeFloor,
        allocs: nil),
      result("W10s", "send whose reducer writes a Shared", send, writeFloor, allocs: sendAllocs),
    ]
  }
}

extension Workloads {
  /// W11: resident memory across navigation cycles. After 1,000 warm-up cycles (each a push,
  /// an element action and a pop, then a present and a dismiss), the growth over the next
  /// 10,000 and 100,000 cycles: flat memory means nothing a cycle makes outlives it.
  static func w11() -> (after10k: Int, after100k: Int) {
    let stack = Store(initialState: StackRoot.State()) { StackRoot() }
    let sheet = Store(initialState: Presenter.State()) { Presenter() }
    func cycles(_ count: Int) {
      for _ in 0..<count {
        stack.send(.push)
        let id = stack.state.path.ids.last!
        stack.send(.path(.element(id: id, action: .tap)))
        stack.send(.path(.popFrom(id: id)))
        sheet.send(.present)
        sheet.send(.child(.dismiss))
      }
    }
    cycles(1_000)
    let start = residentBytes()
    cycles(10_000)
    let after10k = residentBytes() - start
    cycles(90_000)
    return (after10k, residentBytes() - start)
  }
}
