/// What a store remembers about its effects between the effects' steps, owned by this room and
/// held by the store's core as one property (`_StoreCore.effects`): the cascade of the batch
/// being sent, the tasks a concatenation's part started, and the throttle windows
/// (Effect/ThrottleWindows.swift, which also holds the throttle table's methods).
///
/// A struct, so that the send loop reads and clears the batch's cascade at a fixed offset in
/// the core, as it did when the fields were the core's own. Its methods change this state alone
/// and call nothing out, which is what lets the core skip exclusivity checks on it.
@usableFromInline
struct _EffectState<Action> {
  /// The cascade of the top-level `send` being processed, made when its first task starts;
  /// taken and cleared when the batch ends.
  @usableFromInline var batchCascade: _Cascade?
  /// Tasks started while a part of a concatenation is interpreted: the sequence waits for
  /// them, and for nothing started by the actions the part sends.
  @usableFromInline var collectedTasks: [Task<Void, Never>]?
  /// The throttle windows, per navigation position and id. Entries go when their position
  /// goes, and a sweep forgets windows that have closed once the table doubles.
  var throttles: [ThrottleKey: ThrottleState] = [:] {
    didSet { hasThrottles = !throttles.isEmpty }
  }
  /// Whether `throttles` has entries, known without touching it: the table's type is generic,
  /// and the unspecialized effect interpreter would look its metadata up at every `.cancel`
  /// and at every child that goes away.
  var hasThrottles = false
  var throttleSweepThreshold = 16

  @usableFromInline init() {}
}

/// How a store runs the effects its reducers return: `.run` tasks, merges, concatenations,
/// cancellation and navigation positions. The send loop (Store/Runtime/StoreCore.swift) handles
/// `.none` and `.send` inline and hands everything else here.
extension _StoreCore {
  @usableFromInline
  func interpret(_ effect: Effect<Action>, origin: _Origin, context: _EffectContext) {
    switch effect.operation {
    case .none:
      return
    case let .send(action):
      if let throttle = context.throttle {
        throttleAction(action, origin: origin, throttle: throttle, context: context)
      } else {
        enqueue(action, origin: origin)
      }
    case let .run(run):
      startRun(run, origin: origin, context: context)
    case let .merge(effects):
      for effect in effects { interpret(effect, origin: origin, context: context) }
    case let .concatenate(effects):
      var index = 0
      while index < effects.count, effects[index]._isImmediate {
        interpret(effects[index], origin: origin, context: context)
        index += 1
      }
      guard index < effects.count else { return }
      let rest = _MainActorBox(value: Array(effects[index...]))
      let cascade = cascade(for: origin)
      // The sequence holds the core weakly between its parts: a released store tears down,
      // which cancels the sequence wherever it is waiting.
      start(context: context, cascade: cascade, priority: nil) { [weak self] in
        for part in rest.value.indices {
          guard
            let tasks = await self?.startPart(rest, at: part, cascade: cascade, context: context)
          else { return }
          await withTaskCancellationHandler {
            for task in tasks { await task.value }
          } onCancel: {
            for task in tasks { task.cancel() }
          }
        }
      }
    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight {
        runner.cancel(path: context.path, id: id)
        if effects.hasThrottles { effects.dropThrottledActions(under: context.path, id: id) }
      }
      var context = context
      context.ids.append(id)
      interpret(effect, origin: origin, context: context)
    case let .cancel(id):
      runner.cancel(path: context.path, id: id)
      if effects.hasThrottles { effects.dropThrottledActions(under: context.path, id: id) }
    case let .navigation(position, effect):
      var context = context
      context.path.append(position)
      interpret(effect, origin: origin, context: context)
    case let .throttle(throttle, effect):
      // As in TCA, a new throttled effect replaces the one in flight with the same id; the
      // actions it sends go through the id's window.
      runner.cancel(path: context.path, id: throttle.workID)
      var context = context
      context.ids.append(throttle.id)
      context.ids.append(throttle.workID)
      context.throttle = throttle
      interpret(effect, origin: origin, context: context)
    case let .prune(prune):
      interpretPrune(prune, context: context)
    }
  }

  /// Ends the effects of the children a navigation operator saw go. Apart from `interpret`, so
  /// that the specialized `reduce` calls it directly: through `interpret`, a pop's prune would
  /// look up `Effect<Action>`'s generic metadata and copy the effect through its witnesses.
  @usableFromInline
  func interpretPrune(_ prune: _NavigationPrune, context: _EffectContext) {
    runner.prune(under: context.path, isGone: prune.isGone)
    // Checked here: the closure below alone costs a metadata lookup in this generic code.
    guard effects.hasThrottles else { return }
    effects.forgetThrottles { key in
      key.path.count > context.path.count && key.path.starts(with: context.path)
        && prune.isGone(key.path[context.path.count])
    }
  }

  func start(
    context: _EffectContext,
    cascade: _Cascade,
    priority: TaskPriority?,
    _ body: @escaping @Sendable () async -> Void
  ) {
    let task = runner.start(priority: priority, context: context, cascade: cascade, body)
    effects.collectedTasks?.append(task)
  }

  /// The cascade an action from `origin` joins: its effect's, or, for the `send` being
  /// processed, the batch's, made on first use.
  @usableFromInline
  func cascade(for origin: _Origin) -> _Cascade {
    switch origin {
    case let .cascade(cascade):
      return cascade
    case .top:
      if let batchCascade = effects.batchCascade { return batchCascade }
      let cascade = _StoreCascade(core: self)
      effects.batchCascade = cascade
      return cascade
    }
  }

  /// A `.run` effect returned by the root reducer, the common case, started by code specialized
  /// with the feature's types (unspecialized, every generic type it touches is looked up in the
  /// runtime's metadata caches).
  @inlinable
  func startRootRun(_ run: _Run<Action>, origin: _Origin) {
    let cascade: _StoreCascade<State, Action>
    switch origin {
    case .top:
      if let batchCascade = effects.batchCascade as? _StoreCascade<State, Action> {
        cascade = batchCascade
      } else {
        cascade = _StoreCascade(core: self)
        effects.batchCascade = cascade
      }
    case let .cascade(origin):
      guard let origin = origin as? _StoreCascade<State, Action> else {
        return interpret(Effect(.run(run)), origin: .cascade(origin), context: .root)
      }
      cascade = origin
    }
    startRunTask(run, cascade: cascade, context: .root)
  }

  /// Makes the task of a `.run` effect and registers it: made first, registered after, which
  /// is safe because it starts on the main actor, after this job (see ``_EffectRunner``).
  @inlinable
  func startRunTask(
    _ run: _Run<Action>, cascade: _StoreCascade<State, Action>, context: _EffectContext
  ) {
    let token = runner.reserveToken()
    let task = Self.startTask(run, cascade: cascade, runner: runner, token: token)
    runner.register(task, token: token, context: context, cascade: cascade)
    effects.collectedTasks?.append(task)
  }

  func startRun(_ run: _Run<Action>, origin: _Origin, context: _EffectContext) {
    let cascade = cascade(for: origin)
    if context.throttle == nil, let cascade = cascade as? _StoreCascade<State, Action> {
      return startRunTask(run, cascade: cascade, context: context)
    }
    let throttle = context.throttle
    let send = Send<Action> { [weak self] action in
      guard let throttle else {
        _ = self?.send(action, origin: .cascade(cascade))
        return
      }
      self?.throttleAction(action, origin: .cascade(cascade), throttle: throttle, context: context)
    }
    start(context: context, cascade: cascade, priority: run.priority) {
      await DependencyValues._withValue(run.dependencies) {
        await Self.execute(run, send: send)
      }
    }
  }

  /// The task of a `.run` effect: besides the task, its closure's context is the only object
  /// it allocates (the `Send` captures the cascade alone).
  ///
  /// The task starts on the main actor and hops to the global executor only to run the
  /// operation. The operation usually ends on the main actor (its last `send`), where the
  /// dependencies are then unbound and the runner told without a hop back to the global
  /// executor, which would wake a worker thread a second time per effect.
  ///
  /// `_EffectRunner.start(priority:context:cascade:_:)` makes the same task around a body
  /// closure, for throttled, concatenated and timed effects; a `.run` has this copy so that it
  /// needs no closure of its own (one allocation fewer per effect).
  @inlinable
  nonisolated static func startTask(
    _ run: _Run<Action>, cascade: _StoreCascade<State, Action>, runner: _EffectRunner,
    token: UInt64
  ) -> Task<Void, Never> {
    // The send is made here, in code specialized with the feature's types, so that every
    // follow-up action runs the specialized send loop: made in `perform`, it would reach an
    // unspecialized `send`, which runs the loop through the runtime's generic metadata lookups.
    let send = Send<Action> { [cascade] action in
      _ = cascade.core?.send(action, origin: .cascade(cascade))
    }
    guard let executor = runner.executor else {
      return Task(priority: run.priority) { @MainActor in
        await perform(run, send: send)
        runner.complete(token)
      }
    }
    return startTestTask(run, send: send, runner: runner, token: token, executor: executor)
  }

  /// The task of a `.run` effect of a store made in a test: the same work, with the test's
  /// serial executor as its preference, and the `.run`'s file and line as the place the library's
  /// own warnings name (``_UserSite``). Out of line, so that none of it is on the live path.
  @usableFromInline
  nonisolated static func startTestTask(
    _ run: _Run<Action>, send: Send<Action>, runner: _EffectRunner, token: UInt64,
    executor: any TaskExecutor
  ) -> Task<Void, Never> {
    let site = _UserSite(fileID: run.fileID, line: run.line)
    let operation: @Sendable @MainActor () async -> Void = {
      await _TestEffectLifetime.run {
        await _UserSite.$current.withValue(site) { await perform(run, send: send) }
      }
      runner.complete(token)
    }
    return Task(executorPreference: executor, priority: run.priority) { await operation() }
  }

  /// The work of a `.run` effect's task. Out of line: inlined into the task's closure, its
  /// frames outgrow the task's first allocation slab, which costs a heap allocation per task.
  @usableFromInline
  @MainActor
  static func perform(_ run: _Run<Action>, send: Send<Action>) async {
    await DependencyValues._withValue(run.dependencies) {
      await execute(run, send: send)
    }
  }

  @usableFromInline
  nonisolated static func execute(_ run: _Run<Action>, send: Send<Action>) async {
    #if DEBUG
      // A `send` that escapes the operation (into a task or a callback) and is called after it
      // returned is reported: the store no longer knows the effect is running.
      let lifetime = _RunLifetime()
      let send = send._reportingSendsAfterEnd(of: lifetime, fileID: run.fileID, line: run.line)
      defer { lifetime.end() }
    #endif
    do {
      try await run.operation(send)
    } catch is CancellationError {
    } catch {
      guard !Task.isCancelled else { return }
      if let handler = run.handler {
        await handler(error, send)
      } else {
        reportRuntimeWarning(
          """
          An effect threw an error that nothing handled: \(error)

          Effects started with '.run' should handle their errors: pass a 'catch:' handler \
          that sends a failure action, or catch inside the operation.
          """,
          fileID: run.fileID, line: run.line)
      }
    }
  }

  /// Interprets one part of a concatenation in a batch of its own; returns the tasks the part
  /// itself started, or nil when the sequence has been cancelled. The actions it sends are
  /// reduced in the batch, and the tasks their effects start are not the sequence's: it does
  /// not wait for them (as in TCA).
  ///
  /// Cancellation is checked here, on the main actor, where `.cancel(id:)` runs: a sequence
  /// cancelled while it was on its way here never starts the next part.
  func startPart(
    _ parts: _MainActorBox<[Effect<Action>]>, at index: Int, cascade: _Cascade,
    context: _EffectContext
  ) -> [Task<Void, Never>]? {
    guard !Task.isCancelled else { return nil }
    var tasks: [Task<Void, Never>] = []
    batch {
      effects.collectedTasks = []
      interpret(parts.value[index], origin: .cascade(cascade), context: context)
      tasks = effects.collectedTasks ?? []
      effects.collectedTasks = nil
    }
    return tasks
  }
}

extension Effect {
  /// Whether the store can interpret this effect entirely inside the current batch.
  var _isImmediate: Bool {
    switch operation {
    case .none, .send, .cancel, .prune: true
    case .run, .concatenate, .throttle: false
    case let .merge(effects): effects.allSatisfy(\._isImmediate)
    case let .cancellable(_, _, effect), let .navigation(_, effect): effect._isImmediate
    }
  }
}
