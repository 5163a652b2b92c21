import Observation

// The plain-Swift floors. One definition for every row: the floor is the same state change (or
// read) done by an optimized `@inline(never)` function on plain values, none of Cascade's types
// in it, called once per operation, with a result the loop consumes. `@inline(never)` keeps
// the call (the optimizer cannot fold a loop of opaque calls into one); the result keeps the
// work. Reads take the loop's index so that no call is loop-invariant.

/// The state of the floors of W7: a plain optional child, no `@PresentationState`.
struct PlainPresenter {
  var child: Counter.State?
}

@inline(never) func floorIncrement(_ state: inout Counter.State) -> Int {
  state.count &+= 1
  return state.count
}

@inline(never) func floorRead(_ state: inout Counter.State, _ index: Int) -> Int {
  state.count &+ index
}

@inline(never) func floorDeep(_ state: inout L10.State) -> Int {
  state.child.child.child.child.child.child.child.child.child.child.count &+= 1
  return state.child.child.child.child.child.child.child.child.child.child.count
}

@inline(never) func floorReadDeep(_ state: inout L10.State, _ index: Int) -> Int {
  state.child.child.child.child.child.child.child.child.child.child.count &+ index
}

/// W4's three steps: push a screen, act on one, pop one.
@inline(never) func floorPush(_ path: inout [Screen.State]) -> Int {
  path.append(Screen.State())
  return path.count
}

@inline(never) func floorTap(_ path: inout [Screen.State], _ index: Int) -> Int {
  path[index].taps &+= 1
  return path[index].taps
}

@inline(never) func floorPop(_ path: inout [Screen.State]) -> Int {
  path.removeLast().taps
}

/// W7's two steps: present a child, dismiss it.
@inline(never) func floorPresent(_ state: inout PlainPresenter) -> Int {
  state.child = Counter.State()
  return state.child?.count ?? 1
}

@inline(never) func floorDismiss(_ state: inout PlainPresenter) -> Int {
  state.child = nil
  return state.child == nil ? 1 : 0
}

/// W1o's floor: a plain observable model, observed again before every change, as W1o's store.
/// Written out as the `@Observable` macro would write it (Cascade's targets use no macros).
final class PlainCounterModel: Observable {
  private let registrar = ObservationRegistrar()
  private var storedCount = 0
  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return storedCount
    }
    set {
      registrar.withMutation(of: self, keyPath: \.count) { storedCount = newValue }
    }
  }
}

@inline(never) func floorObservedIncrement(_ model: PlainCounterModel) -> Int {
  var total = 0
  withObservationTracking {
    total = model.count
  } onChange: {
  }
  model.count &+= 1
  return total
}

/// W6: the increment and the comparison a test assertion makes.
@inline(never) func floorAssertedIncrement(_ state: inout Counter.State, _ expected: Int) -> Int {
  state.count &+= 1
  return state == Counter.State(count: expected) ? 1 : 0
}

/// W5's floor: a raw `Task` that hops to the main actor and does the follow-up's work.
@inline(never) func floorEffect(_ roundTrips: RoundTrips) -> Int {
  Task { await roundTrips.reduced() }
  return 1
}

/// W5m, a model, not a floor: the least that TCA's effect contract, which Cascade keeps, makes
/// an effect do, in plain Swift. The task starts on the main actor (so no effect begins before
/// the send that started it has ended), the operation runs off it with the dependencies bound
/// as a task-local value (as they were when the effect was made), and the follow-up hops back.
/// No registry, no cancellation, no `StoreTask`: what is left between this and W5 is Cascade's.
@inline(never) func modelContractEffect(_ roundTrips: RoundTrips) -> Int {
  Task { @MainActor in
    await ModelDependencies.$current.withValue(1) { await modelOperation(roundTrips) }
  }
  return 1
}

/// W5m's operation: not isolated, so it runs on the global executor, as an effect's does.
nonisolated func modelOperation(_ roundTrips: RoundTrips) async {
  await roundTrips.reduced()
}

/// W5m's task-local value, standing for the dependencies an effect runs inside.
enum ModelDependencies {
  @TaskLocal static var current = 0
}

/// W5f's floor: awaiting a finished task, on the caller's actor.
@inline(never) func floorFinish(
  _ task: Task<Int, Never>, isolation: isolated (any Actor)? = #isolation
) async -> Int {
  await task.value
}

/// Counts the follow-ups of W5 on the main actor, and resumes whoever waits for the last one.
@MainActor
final class RoundTrips {
  // `nonisolated(unsafe)`: only ever touched on the main actor, by the floor's tasks (isolated
  // calls) and by the `Ping` reducer, which the store runs there but which is not isolated to
  // it (`MainActor.assumeIsolated` would allocate a closure context per call and be counted).
  nonisolated(unsafe) private(set) var count = 0
  nonisolated(unsafe) private var target = Int.max
  nonisolated(unsafe) private var waiter: CheckedContinuation<Void, Never>?

  /// One follow-up done (the floor).
  func reduced() { reducedByReducer() }

  /// One follow-up reduced (Cascade): called by the reducer, on the main actor.
  nonisolated func reducedByReducer() {
    count &+= 1
    if count == target, let waiter {
      self.waiter = nil
      waiter.resume()
    }
  }

  /// Runs `start`, which starts `operations` round trips, and returns when the last has ended.
  func run(_ operations: Int, _ start: () -> Void) async {
    await withCheckedContinuation { continuation in
      target = count &+ operations
      waiter = continuation
      start()
    }
  }
}
