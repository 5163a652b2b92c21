import Synchronization

/// The running effect tasks of one root store, with the navigation path and cancellation ids
/// each was started under.
///
/// One runner per root store is what namespaces cancellation: `.cancel(id:)` only ever looks
/// here. It is lock-protected rather than main-actor isolated because cancellation comes from
/// any thread (a `StoreTask`, a cancelled waiter) and a store's teardown runs in a nonisolated
/// `deinit`.
///
/// Every task is made by the store on the main actor and starts on the main actor, so it
/// cannot run before the job that made it ends: the store makes it first and registers it
/// after, in one critical section (``reserveToken()``, then ``register(_:token:context:cascade:)``).
@usableFromInline
package final class _EffectRunner: Sendable {
  private struct Entry {
    let task: Task<Void, Never>
    let context: _EffectContext
    let cascade: _Cascade
  }

  private struct State {
    var entries = _TokenTable<Entry>()
    var isTornDown = false
  }

  /// Also guards the mutable state of every ``_Cascade`` of this runner.
  private let state = Guarded(State())
  /// The next task's token: apart from the lock, so that reserving one does not take it.
  private let nextToken = Atomic<UInt64>(0)

  /// Where the effects' nonisolated work runs in a test: the test's serial executor (see
  /// ``_TestSupport``), so that it runs in turn with the test; `nil` (the global executor)
  /// everywhere else.
  @usableFromInline let executor: (any TaskExecutor)?

  @usableFromInline init(executor: (any TaskExecutor)? = nil) { self.executor = executor }

  /// The number of effect tasks that have started and not yet finished.
  package var activeCount: Int { state.withLock { $0.entries.count } }

  /// Cancels every running task; the store stays usable.
  package func cancelAll() {
    cancel { _ in true }
  }

  /// Starts `body` on a new task, registered under `context`: the task starts on the main
  /// actor, after the caller's job, and `body` (nonisolated) runs where it is isolated to.
  @MainActor
  func start(
    priority: TaskPriority?,
    context: _EffectContext,
    cascade: _Cascade,
    _ body: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let token = reserveToken()
    let task: Task<Void, Never>
    if let executor {
      let operation: @Sendable @MainActor () async -> Void = {
        await _TestEffectLifetime.run { await body() }
        self.complete(token)
      }
      task = Task(executorPreference: executor, priority: priority) { await operation() }
    } else {
      task = Task(priority: priority) { @MainActor in
        await body()
        self.complete(token)
      }
    }
    register(task, token: token, context: context, cascade: cascade)
    return task
  }

  /// A token for a task about to be made on the main actor and registered with
  /// ``register(_:token:context:cascade:)`` before it can start.
  @usableFromInline
  func reserveToken() -> UInt64 {
    nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Registers `task`, made under `token` (from ``reserveToken()``) by a main-actor caller and
  /// started on the main actor: it cannot run before the caller's job ends, so it is registered
  /// before it can finish. A task whose cascade has been cancelled is registered (its
  /// cascade's `finish()` waits for it) and cancelled; one that comes after the store is gone
  /// is only cancelled. Both outside the lock.
  @usableFromInline
  func register(
    _ task: Task<Void, Never>, token: UInt64, context: _EffectContext, cascade: _Cascade
  ) {
    let shouldCancel = state.withLock { state -> Bool in
      guard !state.isTornDown else { return true }
      state.entries.insert(Entry(task: task, context: context, cascade: cascade), at: token)
      cascade.lockedRunning += 1
      return cascade.lockedIsCancelled
    }
    if shouldCancel { task.cancel() }
  }

  /// Called by a registered task when its work is done.
  @usableFromInline
  func complete(_ token: UInt64) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      guard let cascade = state.entries.remove(token)?.cascade else {
        return []  // the store was gone when the task was made: never registered
      }
      cascade.lockedRunning -= 1
      guard cascade.lockedRunning == 0, !cascade.lockedWaiters.isEmpty else { return [] }
      defer { cascade.lockedWaiters = [:] }
      return Array(cascade.lockedWaiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Cancels the tasks under `path` that carry `id`, or all tasks under `path` when `id` is nil.
  func cancel(path: [_AnyID], id: _AnyID?) {
    cancel { entry in
      entry.context.path.starts(with: path) && (id.map(entry.context.ids.contains) ?? true)
    }
  }

  /// Cancels the tasks of the navigation positions directly under `path` that `isGone` names.
  func prune(under path: [_AnyID], isGone: (_AnyID) -> Bool) {
    cancel { entry in
      let entryPath = entry.context.path
      return entryPath.count > path.count && entryPath.starts(with: path)
        && isGone(entryPath[path.count])
    }
  }

  /// Cancels the tasks of `cascade`, and those it starts from now on.
  func cancel(_ cascade: _Cascade) {
    cancel(marking: { _ in cascade.lockedIsCancelled = true }) { $0.cascade === cascade }
  }

  /// Cancels every task and refuses new ones: the store is gone.
  func tearDown() {
    cancel(marking: { $0.isTornDown = true }) { _ in true }
  }

  /// Runs `body` under the lock that guards the state of this runner's cascades.
  func withLock<R>(_ body: () -> R) -> R {
    state.withLock { _ in body() }
  }

  /// Cancels the tasks `shouldCancel` names, after `mark` has changed the state in the same
  /// critical section.
  private func cancel(
    marking mark: (inout State) -> Void = { _ in }, where shouldCancel: (Entry) -> Bool
  ) {
    // Collected under the lock, cancelled outside it: cancellation handlers run synchronously
    // and may call back into the runner.
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      mark(&state)
      var tasks: [Task<Void, Never>] = []
      state.entries.visitValues { entry in
        if shouldCancel(entry) { tasks.append(entry.task) }
      }
      return tasks
    }
    for task in tasks { task.cancel() }
  }
}

/// The effects started by one `send` and, transitively, by the actions those effects sent:
/// what a ``StoreTask`` cancels and waits for.
///
/// `@unchecked Sendable`: its mutable state (the `locked…` properties) is only ever read or
/// written under its runner's lock, the one that registers and completes its tasks (one lock
/// per store instead of one per send, and no set of task tokens: the runner's entries know
/// their cascade).
@usableFromInline
package class _Cascade: @unchecked Sendable {
  /// Tasks of the cascade started and not yet finished.
  fileprivate final var lockedRunning = 0
  fileprivate final var lockedIsCancelled = false
  fileprivate final var lockedWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  fileprivate final var lockedNextWaiter = 0
  private let runner: _EffectRunner

  @usableFromInline init(runner: _EffectRunner) { self.runner = runner }

  var isCancelled: Bool { runner.withLock { lockedIsCancelled } }

  /// Whether a task of the cascade is still running.
  package var isRunning: Bool { runner.withLock { lockedRunning > 0 } }

  package func cancel() {
    runner.cancel(self)
  }

  /// Waits until every task of the cascade has finished, or the waiting task is cancelled; on
  /// the caller's actor, so that nothing hops when there is nothing left to wait for.
  package func wait(isolation: isolated (any Actor)? = #isolation) async {
    let id = runner.withLock { () -> Int? in
      guard lockedRunning > 0 else { return nil }
      defer { lockedNextWaiter += 1 }
      return lockedNextWaiter
    }
    guard let id else { return }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let isDone = runner.withLock { () -> Bool in
          if lockedRunning == 0 || Task.isCancelled { return true }
          lockedWaiters[id] = continuation
          return false
        }
        if isDone { continuation.resume() }
      }
    } onCancel: {
      runner.withLock { lockedWaiters.removeValue(forKey: id) }?.resume()
    }
  }
}

/// The cascade of a store core: it knows where its effects' actions go.
///
/// The `Send` of a `.run` effect captures this object alone (no closure context of its own:
/// a closure over one reference uses it as its context), and reaches the core through it.
///
/// `@unchecked Sendable` (as ``_Cascade``): `target` is written once, in `init`, and the core
/// behind it is only read on the main actor.
@usableFromInline
final class _StoreCascade<State, Action>: _Cascade, @unchecked Sendable {
  @usableFromInline let target: _WeakReference<_StoreCore<State, Action>>

  /// The store core, or nil once it is gone.
  @inlinable var core: _StoreCore<State, Action>? { target.object }

  @MainActor
  @usableFromInline
  init(core: _StoreCore<State, Action>) {
    self.target = core.weakSelf
    super.init(runner: core.runner)
  }
}

/// The key of a running task: a number from the runner's counter, hashed as such with
/// `_sequentialHash`, not SipHash, to keep the runner's dictionary operations cheap.
struct _EffectToken: Hashable {
  let raw: UInt64
  init(_ raw: UInt64) { self.raw = raw }
  func hash(into hasher: inout Hasher) { hasher.combine(raw) }
  func _rawHashValue(seed: Int) -> Int { _sequentialHash(raw, seed: seed) }
}

/// The running tasks of a runner, by token.
///
/// Tokens are handed out in order and a task is registered in the main-actor job that reserved
/// its token, so the live tokens form a window: a slot per token in an array from the oldest
/// live one, the front dropped as it empties. Registering and completing a task are an index
/// each. A hash table did the same work at a random place in a table as large as the most tasks
/// ever live at once: a burst of 10,000 effects (W5) spent about 400 ns a round trip (15% of
/// it) on those two operations, mostly waiting for memory. A token outside the window (one
/// registered after the front moved past it) goes to a small table on the side.
struct _TokenTable<Value> {
  /// The token of `slots[head]`.
  private var base: UInt64 = 0
  private var slots: [Value?] = []
  private var head = 0
  private var live = 0
  private var outside: [_EffectToken: Value] = [:]

  var count: Int { live + outside.count }

  mutating func insert(_ value: Value, at token: UInt64) {
    if slots.count == head {
      // Empty: the window starts at this token.
      slots.removeAll(keepingCapacity: true)
      head = 0
      base = token
    }
    guard token >= base, token - base < UInt64(Int.max) else {
      outside[_EffectToken(token)] = value
      return
    }
    let index = head + Int(token - base)
    let gap = index - slots.count
    guard gap < 4096 else {
      outside[_EffectToken(token)] = value
      return
    }
    if gap >= 0 {
      if gap > 0 { slots.append(contentsOf: repeatElement(nil, count: gap)) }
      slots.append(value)
      live += 1
    } else if slots[index] == nil {
      slots[index] = value
      live += 1
    } else {
      outside[_EffectToken(token)] = value
    }
  }

  mutating func remove(_ token: UInt64) -> Value? {
    if token >= base, token - base < UInt64(slots.count - head) {
      let index = head + Int(token - base)
      if let value = slots[index] {
        slots[index] = nil
        live -= 1
        dropEmptyFront()
        return value
      }
    }
    return outside.removeValue(forKey: _EffectToken(token))
  }

  func visitValues(_ body: (Value) -> Void) {
    for index in head..<slots.count { if let value = slots[index] { body(value) } }
    for value in outside.values { body(value) }
  }

  private mutating func dropEmptyFront() {
    while head < slots.count, slots[head] == nil {
      head += 1
      base += 1
    }
    if head == slots.count {
      slots.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024, head * 2 >= slots.count {
      slots.removeFirst(head)
      head = 0
    }
  }
}

extension _TokenTable: Sendable where Value: Sendable {}

/// Who an action came from: the `send` being processed, or an effect's cascade.
@usableFromInline
enum _Origin {
  case top
  case cascade(_Cascade)
}

/// A value only ever touched on the main actor, handed through a `@Sendable` closure that does
/// nothing with it but pass it to a main-actor method.
struct _MainActorBox<Value>: @unchecked Sendable {
  let value: Value
}

/// Whether the effect task of a store made in a test was cancelled, for the actions it sent: a
/// test store delivers an effect's actions only when the test receives them, so one still
/// waiting when its effect is cancelled (by a dismissal or a cancel the test store reduced) is
/// discarded, as work the feature ended. Test stores only: the live path never makes one.
package final class _TestEffectLifetime: Sendable {
  private struct State {
    var cancelled = false
    var finished = false
    var parked: CheckedContinuation<Void, Never>?
  }

  private let state = Guarded(State())

  /// The lifetime of the effect running the current task, in a store made in a test.
  @TaskLocal package static var current: _TestEffectLifetime?

  /// Told of each effect task's lifetime as its work starts and as it ends, by CascadeTesting's
  /// explorer (and a test store that holds received actions), which keep each effect's actions
  /// apart. Inherited by the effect tasks a store starts within its scope, like every
  /// task-local value.
  @TaskLocal package static var observer: _TestEffectObserver?

  /// Whether the effect's task was cancelled.
  package var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Whether the effect's work has returned (or thrown, or ended cancelled).
  package var isFinished: Bool { state.withLock { $0.finished } }

  /// Keeps the effect's task running, once its work has returned, until ``release()`` or a
  /// cancellation: an effect whose actions a test still holds has, as far as the feature can
  /// tell, not sent them yet, so it must still be there for a `.cancel` to end. The caller
  /// checks, in the same main-actor job, that actions are held.
  package func park() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        if state.cancelled { return true }
        state.parked = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Lets a parked effect's task end (see ``park()``); does nothing to one not parked.
  package func release() {
    let parked = state.withLock { state -> CheckedContinuation<Void, Never>? in
      defer { state.parked = nil }
      return state.parked
    }
    parked?.resume()
  }

  /// Runs an effect's work with a lifetime of its own, marked when the task is cancelled.
  @MainActor
  static func run(_ operation: @MainActor () async -> Void) async {
    let lifetime = _TestEffectLifetime()
    let observer = self.observer
    observer?.started(lifetime)
    await withTaskCancellationHandler {
      await $current.withValue(lifetime) { await operation() }
      lifetime.state.withLock { $0.finished = true }
      if let observer { await observer.ended(lifetime) }
    } onCancel: {
      let parked = lifetime.state.withLock { state -> CheckedContinuation<Void, Never>? in
        state.cancelled = true
        defer { state.parked = nil }
        return state.parked
      }
      parked?.resume()
    }
  }
}

/// What ``_TestEffectLifetime/observer`` calls as each effect's work starts and ends: a
/// struct, because a task-local of an optional function type is miscompiled by Swift 6.3's
/// optimizer.
package struct _TestEffectObserver: Sendable {
  package let started: @Sendable @MainActor (_TestEffectLifetime) -> Void
  /// Called once the effect's work has returned; the task ends when it returns.
  package let ended: @Sendable @MainActor (_TestEffectLifetime) async -> Void

  package init(
    started: @escaping @Sendable @MainActor (_TestEffectLifetime) -> Void,
    ended: @escaping @Sendable @MainActor (_TestEffectLifetime) async -> Void
  ) {
    self.started = started
    self.ended = ended
  }
}

/// The bucket hash of a key that is a number from a counter (a stack element id, an effect's
/// token): the number and the table's seed, mixed by a 64-bit finalizer (a multiply-xorshift
/// cascade) instead of SipHash.
///
/// SipHash defends a table against keys chosen to collide; these keys are not chosen, and the
/// table's seed, random per process, is mixed in before the finalizer, which is a bijection.
/// Mixed they must be: consecutive numbers used as they are would fill one long run of buckets,
/// which every lookup and removal near it walks.
@inlinable
func _sequentialHash(_ value: UInt64, seed: Int) -> Int {
  var bits = value ^ UInt64(bitPattern: Int64(seed))
  bits = (bits ^ (bits &>> 33)) &* 0xff51_afd7_ed55_8ccd
  bits = (bits ^ (bits &>> 33)) &* 0xc4ce_b9fe_1a85_ec53
  return Int(truncatingIfNeeded: bits ^ (bits &>> 33))
}

/// A type-erased identifier that can cross tasks: cancellation ids and navigation positions.
///
/// `@unchecked Sendable` because `AnyHashable` is not `Sendable` in general; every
/// initializer here only accepts `Sendable` values or key paths, which are immutable.
@usableFromInline
struct _AnyID: Hashable, @unchecked Sendable {
  let base: AnyHashable

  @usableFromInline
  init<ID: Hashable & Sendable>(_ id: ID) { self.base = AnyHashable(id) }

  @usableFromInline
  init(keyPath: AnyKeyPath) { self.base = AnyHashable(keyPath) }
}
