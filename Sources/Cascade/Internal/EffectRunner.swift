/// The running effect tasks of one root store, with the navigation path and cancellation ids
/// each was started under.
///
/// One runner per root store is what namespaces cancellation: `.cancel(id:)` only ever looks
/// here. It is lock-protected rather than main-actor isolated because tasks report their own
/// completion from wherever they finish, and a store's teardown runs in a nonisolated `deinit`.
@usableFromInline
package final class _EffectRunner: Sendable {
  private struct Entry {
    let task: Task<Void, Never>
    let context: _EffectContext
    let cascade: _Cascade?
  }

  private struct State {
    var nextToken: UInt64 = 0
    var entries: [UInt64: Entry] = [:]
    var isTornDown = false
  }

  private let state = Guarded(State())

  @usableFromInline init() {}

  /// The number of effect tasks that have started and not yet finished.
  package var activeCount: Int { state.withLock { $0.entries.count } }

  /// Cancels every running task; the store stays usable.
  package func cancelAll() {
    cancel { _ in true }
  }

  /// Starts `body` on a new task (never on the caller's), registered under `context`.
  @discardableResult
  func start(
    priority: TaskPriority?,
    context: _EffectContext,
    cascade: _Cascade?,
    _ body: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never>? {
    state.withLock { state -> Task<Void, Never>? in
      guard !state.isTornDown else { return nil }
      let token = state.nextToken
      state.nextToken &+= 1
      // Created under the lock so that the task cannot report completion before it is
      // registered: `complete` waits for the lock.
      let task = Task(priority: priority) {
        await body()
        self.complete(token)
      }
      state.entries[token] = Entry(task: task, context: context, cascade: cascade)
      if let cascade, !cascade.add(token) { task.cancel() }
      return task
    }
  }

  private func complete(_ token: UInt64) {
    let cascade = state.withLock { $0.entries.removeValue(forKey: token)?.cascade }
    cascade?.remove(token)
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

  /// Cancels the tasks with these tokens.
  func cancel(tokens: Set<UInt64>) {
    let tasks = state.withLock { state in tokens.compactMap { state.entries[$0]?.task } }
    for task in tasks { task.cancel() }
  }

  /// Cancels every task and refuses new ones: the store is gone.
  func tearDown() {
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.isTornDown = true
      return state.entries.values.map(\.task)
    }
    for task in tasks { task.cancel() }
  }

  private func cancel(where shouldCancel: (Entry) -> Bool) {
    // Collected under the lock, cancelled outside it: cancellation handlers run synchronously
    // and may call back into the runner.
    let tasks = state.withLock { state in state.entries.values.filter(shouldCancel).map(\.task) }
    for task in tasks { task.cancel() }
  }
}

/// The effects started by one `send` and, transitively, by the actions those effects sent:
/// what a ``StoreTask`` cancels and waits for.
@usableFromInline
package final class _Cascade: Sendable {
  private struct State {
    var tokens: Set<UInt64> = []
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter = 0
    var isCancelled = false
  }

  private let state = Guarded(State())
  private let runner: _EffectRunner

  @usableFromInline init(runner: _EffectRunner) { self.runner = runner }

  /// Records a started task; `false` if the cascade was already cancelled.
  func add(_ token: UInt64) -> Bool {
    state.withLock { state in
      state.tokens.insert(token)
      return !state.isCancelled
    }
  }

  func remove(_ token: UInt64) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.tokens.remove(token)
      guard state.tokens.isEmpty else { return [] }
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Whether a task of the cascade is still running.
  package var isRunning: Bool { state.withLock { !$0.tokens.isEmpty } }

  package func cancel() {
    let tokens = state.withLock { state in
      state.isCancelled = true
      return state.tokens
    }
    runner.cancel(tokens: tokens)
  }

  /// Waits until every task of the cascade has finished, or the waiting task is cancelled; on
  /// the caller's actor, so that nothing hops when there is nothing left to wait for.
  package func wait(isolation: isolated (any Actor)? = #isolation) async {
    let id = state.withLock { state -> Int? in
      guard !state.tokens.isEmpty else { return nil }
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    guard let id else { return }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let isDone = state.withLock { state in
          if state.tokens.isEmpty || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if isDone { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }
}

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
