import Observation

/// What every store of one tree shares, whatever its state type: the observation registrar,
/// the running effects and the subscribers of the async observation.
@usableFromInline
@MainActor
package class _CoreBase: Observable {
  @usableFromInline let registrar = ObservationRegistrar()
  @usableFromInline package let runner: _EffectRunner
  private var subscribers: [_WeakSubscriber] = []
  /// Whether the state has been read through a store since the last batch told the registrar:
  /// only then can an observer be registered, so only then does a batch tell the registrar.
  /// Observation's observers are one-shot (`withObservationTracking`, `Observations`, and the
  /// views built on them hear one change, then read again to hear the next), so once a batch
  /// has told the registrar, nobody is left registered who has not read since.
  @usableFromInline @exclusivity(unchecked) final var isObserved = false
  /// Whether the running batch told the registrar `willSet`, so must tell it `didSet`.
  @usableFromInline @exclusivity(unchecked) final var isNotifying = false
  @usableFromInline @exclusivity(unchecked) final var hasSubscribers = false

  /// `\_CoreBase._state`, made once: a key path literal is looked up in the runtime each time
  /// it is evaluated, and the registrar is told twice per batch.
  @usableFromInline let stateKeyPath: KeyPath<_CoreBase, Void> = \_CoreBase._state

  @usableFromInline init(runner: _EffectRunner) { self.runner = runner }

  /// The number of throttle windows the store remembers.
  package var throttleEntryCount: Int { 0 }

  /// The key path observers register on: one change per batch, whichever store they read.
  @usableFromInline var _state: Void { () }

  @usableFromInline
  final func accessState() {
    isObserved = true
    registrar.access(self, keyPath: stateKeyPath)
  }

  @inlinable
  final func willChange() {
    guard isObserved else { return }
    // Cleared before the registrar runs: an observer that registers again while it hears
    // `willSet` (reading the state from its handler) is heard at the next batch.
    isObserved = false
    isNotifying = true
    registrar.willSet(self, keyPath: stateKeyPath)
  }

  @inlinable
  final func didChange() {
    if isNotifying {
      isNotifying = false
      registrar.didSet(self, keyPath: stateKeyPath)
    }
    if hasSubscribers { notifySubscribers() }
  }

  @usableFromInline
  final func notifySubscribers() {
    subscribers.removeAll { $0.subscriber == nil }
    hasSubscribers = !subscribers.isEmpty
    for subscriber in subscribers { subscriber.subscriber?.stateDidChange() }
  }

  final func subscribe(_ subscriber: any _Subscriber) {
    subscribers.append(_WeakSubscriber(subscriber: subscriber))
    hasSubscribers = true
  }

  /// Subscribers the core keeps alive itself (store-to-store links), until they finish.
  private var retained: [AnyObject] = []

  final func retain<S: _Subscriber>(_ subscriber: S) where S: _Finishable {
    retained.removeAll { ($0 as? any _Finishable)?.isFinished ?? true }
    retained.append(subscriber)
    subscribe(subscriber)
  }

  deinit {
    runner.tearDown()
  }
}

/// Root state, addressable in place by projections.
@usableFromInline
@MainActor
package class _StateBox<State>: _CoreBase {
  /// Where the state lives, for the box's whole life: a scoped store reads its part with one
  /// load at a fixed offset from here, in code specialized with its state type.
  /// `nonisolated(unsafe)`: read off the main actor only by `deinit`, which runs when nothing
  /// else can reach the box.
  @usableFromInline nonisolated(unsafe) let storage: UnsafeMutablePointer<State>

  /// The state, in place. Exclusivity is enforced by construction instead of at run time: the
  /// state is touched only on the main actor, by the send loop (which never re-enters a
  /// reducer) and by reads.
  @inlinable package final var state: State {
    unsafeAddress { UnsafePointer(storage) }
    unsafeMutableAddress { storage }
  }

  @usableFromInline init(state: State, runner: _EffectRunner) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: state)
    super.init(runner: runner)
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }
}

/// The root of a store tree: the state, the reducer and the send loop.
///
/// The loop is `@inlinable` so that it is specialized, with the feature's reducer, in the
/// module that creates the store: unspecialized generic code would look up the metadata of
/// its generic types on every action. Interpreting effects other than `.none` and `.send` is
/// out of line.
@usableFromInline
@MainActor
package final class _StoreCore<State, Action>: _StateBox<State> {
  @usableFromInline
  struct Pending {
    @usableFromInline let action: Action
    @usableFromInline let origin: _Origin
    @inlinable init(action: Action, origin: _Origin) {
      self.action = action
      self.origin = origin
    }
  }

  private struct ThrottleKey: Hashable {
    let path: [_AnyID]
    let id: _AnyID
  }

  /// One throttle id's window: when it last delivered, the action kept for the end of the
  /// window, and which wait is current (a cancelled wait that reports late is ignored).
  private struct ThrottleState {
    var throttle: _Throttle
    var last: (any Sendable)?
    var pending: (action: Action, origin: _Origin)?
    var isWaiting = false
    var generation = 0
  }

  @usableFromInline let reducer: _ReduceFunction<State, Action>
  /// The weak reference to this core that every cascade of it shares: a cascade made per
  /// `send` retains this box instead of forming (and destroying) a weak reference of its own.
  @usableFromInline let weakSelf = _WeakReference<_StoreCore<State, Action>>(nil)
  // Exclusivity of the two properties below is enforced by construction (main actor only, and
  // the send loop never hands out a reference to them), so not checked at run time per send.
  @usableFromInline @exclusivity(unchecked) var dependencies: _DependencyBox
  /// Set by a `TestStore`: actions sent by effects (through `Send` or `.send`) are handed to it
  /// instead of being reduced, until the test receives them.
  @usableFromInline @exclusivity(unchecked) package var interceptor:
    (@MainActor (Action, _Cascade) -> Void)?
  @usableFromInline @exclusivity(unchecked) var buffer: [Pending] = []
  @usableFromInline @exclusivity(unchecked) var isSending = false
  /// The cascade of the top-level `send` being processed, made when its first task starts.
  @usableFromInline @exclusivity(unchecked) var batchCascade: _Cascade?
  /// Tasks started while a part of a concatenation is interpreted: the sequence waits for
  /// them, and for nothing started by the actions the part sends.
  @usableFromInline var collectedTasks: [Task<Void, Never>]?
  /// The throttle windows, per navigation position and id. Entries go when their position
  /// goes, and a sweep forgets windows that have closed once the table doubles.
  private var throttles: [ThrottleKey: ThrottleState] = [:] {
    didSet { hasThrottles = !throttles.isEmpty }
  }
  /// Whether `throttles` has entries, known without touching it: the table's type is generic,
  /// and the unspecialized effect interpreter would look its metadata up at every `.cancel`
  /// and at every child that goes away.
  private var hasThrottles = false
  private var throttleSweepThreshold = 16

  /// The number of throttle windows the store remembers (tests check it stays bounded).
  package override var throttleEntryCount: Int { throttles.count }

  /// Not inlinable: it runs once per store, and inlined into a client built for testing
  /// (`-enable-testing -O`) it refers to the private throttle table's field offsets, which the
  /// compiler then fails to link (Swift 6.3).
  @usableFromInline
  init(
    initialState: State,
    reducer: @escaping _ReduceFunction<State, Action>,
    dependencies: DependencyValues
  ) {
    self.reducer = reducer
    self.dependencies = _DependencyBox(dependencies)
    super.init(
      state: initialState,
      runner: _EffectRunner(executor: _TestSupport.effectExecutor(for: dependencies.context)))
    weakSelf.object = self
    buffer.reserveCapacity(16)
  }

  /// Reduces `action` and every action sent synchronously in its wake, in FIFO order, then
  /// notifies observers once.
  /// The dependencies the store's reducers and new effects see; a test may change them.
  package var dependencyValues: DependencyValues {
    get { dependencies.values }
    set {
      // A running batch publishes its box unretained (see `batch(first:origin:)`): keep that
      // box alive while it runs. Outside a batch nothing points at an old box.
      if isSending {
        if retiredDependencies == nil { retiredDependencies = dependencies }
      } else {
        retiredDependencies = nil
      }
      dependencies = _DependencyBox(newValue)
    }
  }

  /// The box a running batch published when the dependencies were replaced during it.
  private var retiredDependencies: _DependencyBox?

  /// Reduces an action a test received, in the cascade of the effect that sent it.
  package func reduceReceived(_ action: Action, cascade: _Cascade) {
    batch { buffer.append(Pending(action: action, origin: .cascade(cascade))) }
  }

  @inlinable
  func send(_ action: Action, origin: _Origin) -> _Cascade? {
    if case let .cascade(cascade) = origin, let interceptor {
      interceptor(action, cascade)
      return cascade
    }
    if isSending { return enqueueDuringBatch(action, origin: origin) }
    let started = batch(first: action, origin: origin)
    if case let .cascade(cascade) = origin { return cascade }
    return started
  }

  /// An action sent from inside the batch (an observer reacting synchronously) joins the
  /// batch, with a cascade of its own.
  @usableFromInline
  func enqueueDuringBatch(_ action: Action, origin: _Origin) -> _Cascade? {
    let origin: _Origin =
      if case .top = origin { .cascade(_StoreCascade(core: self)) } else { origin }
    buffer.append(Pending(action: action, origin: origin))
    if case let .cascade(cascade) = origin { return cascade }
    return nil
  }

  /// Runs the send loop; returns the cascade made for `.top` actions, if any task started.
  @inlinable
  @discardableResult
  func batch(_ seed: () -> Void) -> _Cascade? {
    isSending = true
    seed()
    if case .top? = buffer.first?.origin {
      _BatchOrigin.begin(startedByUser: true)
    } else {
      _BatchOrigin.begin(startedByUser: false)
    }
    // After the seed, so that an observer sending as it hears of the change queues its action
    // behind the one being sent, never in front of it.
    willChange()
    _BatchDependencies.with(unretained: Unmanaged.passUnretained(dependencies)) { reduceBuffer() }
    return endBatch()
  }

  /// The send loop for one action sent from outside: the action is reduced first, without
  /// going through the buffer, then whatever it queued (most sends queue nothing).
  @inlinable
  func batch(first action: Action, origin: _Origin) -> _Cascade? {
    isSending = true
    if case .top = origin {
      _BatchOrigin.begin(startedByUser: true)
    } else {
      _BatchOrigin.begin(startedByUser: false)
    }
    // An observer sending as it hears of the change queues its action behind this one.
    willChange()
    // Unretained: the store holds its box for the whole batch (a retain and a release of it
    // were a fifth of a send), and `dependencyValues` keeps a box replaced meanwhile alive.
    _BatchDependencies.with(unretained: Unmanaged.passUnretained(dependencies)) {
      reduce(action, origin: origin)
      if !buffer.isEmpty { reduceBuffer() }
    }
    return endBatch()
  }

  /// Reduces one action and interprets its effect. The switch is on the returned value itself,
  /// which it consumes: switching on a stored effect would copy it first (one outlined copy and
  /// one destroy of the whole effect per action).
  @inlinable
  func reduce(_ action: Action, origin: _Origin) {
    switch reducer(&state, action).operation {
    case .none: break
    case let .send(action): enqueue(action, origin: origin)
    case let .run(run): startRootRun(run, origin: origin)
    case let .prune(prune): interpretPrune(prune, context: .root)
    case let operation: interpret(Effect(operation), origin: origin, context: .root)
    }
  }

  /// Reduces the queued actions in order, with those they queue in turn, and empties the queue.
  @inlinable
  func reduceBuffer() {
    var index = 0
    while index < buffer.count {
      let pending = buffer[index]
      index += 1
      reduce(pending.action, origin: pending.origin)
    }
    buffer.removeAll(keepingCapacity: true)
  }

  @inlinable
  func endBatch() -> _Cascade? {
    isSending = false
    // Taken before observers run: one of them may start a new batch.
    let started = batchCascade
    batchCascade = nil
    didChange()
    return started
  }

  /// Queues an action sent synchronously by an effect, or hands it to the test.
  @inlinable
  func enqueue(_ action: Action, origin: _Origin) {
    if let interceptor {
      interceptor(action, cascade(for: origin))
    } else {
      buffer.append(Pending(action: action, origin: origin))
    }
  }

  @usableFromInline
  func cascade(for origin: _Origin) -> _Cascade {
    switch origin {
    case let .cascade(cascade):
      return cascade
    case .top:
      if let batchCascade { return batchCascade }
      let cascade = _StoreCascade(core: self)
      batchCascade = cascade
      return cascade
    }
  }

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
        if hasThrottles { dropThrottledActions(under: context.path, id: id) }
      }
      var context = context
      context.ids.append(id)
      interpret(effect, origin: origin, context: context)
    case let .cancel(id):
      runner.cancel(path: context.path, id: id)
      if hasThrottles { dropThrottledActions(under: context.path, id: id) }
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
  /// that the specialized `reduce` calls it directly: a pop's prune through `interpret` looked
  /// up `Effect<Action>`'s generic metadata and copied the effect through its witnesses, about a
  /// third of a pop.
  @usableFromInline
  func interpretPrune(_ prune: _NavigationPrune, context: _EffectContext) {
    runner.prune(under: context.path, isGone: prune.isGone)
    // Checked here: the closure below alone costs a metadata lookup in this generic code.
    guard hasThrottles else { return }
    forgetThrottles { key in
      key.path.count > context.path.count && key.path.starts(with: context.path)
        && prune.isGone(key.path[context.path.count])
    }
  }

  private func start(
    context: _EffectContext,
    cascade: _Cascade,
    priority: TaskPriority?,
    _ body: @escaping @Sendable () async -> Void
  ) {
    let task = runner.start(priority: priority, context: context, cascade: cascade, body)
    collectedTasks?.append(task)
  }

  /// A `.run` effect returned by the root reducer, the common case, started by code specialized
  /// with the feature's types (unspecialized, every generic type it touches is looked up in the
  /// runtime's metadata caches).
  @inlinable
  func startRootRun(_ run: _Run<Action>, origin: _Origin) {
    let cascade: _StoreCascade<State, Action>
    switch origin {
    case .top:
      if let batchCascade = batchCascade as? _StoreCascade<State, Action> {
        cascade = batchCascade
      } else {
        cascade = _StoreCascade(core: self)
        batchCascade = cascade
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
    collectedTasks?.append(task)
  }

  private func startRun(_ run: _Run<Action>, origin: _Origin, context: _EffectContext) {
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
  /// executor: that hop, a second wake-up of a worker thread per effect, cost about as much as
  /// the rest of the round trip.
  ///
  /// `_EffectRunner.start(priority:context:cascade:_:)` makes the same task around a body
  /// closure, for throttled, concatenated and timed effects; a `.run` has this copy so that it
  /// needs no closure of its own (one allocation fewer per effect).
  @inlinable
  nonisolated static func startTask(
    _ run: _Run<Action>, cascade: _StoreCascade<State, Action>, runner: _EffectRunner,
    token: UInt64
  ) -> Task<Void, Never> {
    // The send is made here, in code specialized with the feature's types: made in `perform`,
    // it reached an unspecialized `send`, and every follow-up action ran the send loop through
    // the runtime's generic metadata lookups.
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
  /// own warnings name (``_UserSite``). Out of line: the live path stays as it was.
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
  private func startPart(
    _ parts: _MainActorBox<[Effect<Action>]>, at index: Int, cascade: _Cascade,
    context: _EffectContext
  ) -> [Task<Void, Never>]? {
    guard !Task.isCancelled else { return nil }
    var tasks: [Task<Void, Never>] = []
    batch {
      collectedTasks = []
      interpret(parts.value[index], origin: .cascade(cascade), context: context)
      tasks = collectedTasks ?? []
      collectedTasks = nil
    }
    return tasks
  }

  /// Delivers an action a throttled effect sent: at once when its id's window is closed,
  /// else kept (the latest, or the first) and delivered when the window closes.
  private func throttleAction(
    _ action: Action, origin: _Origin, throttle: _Throttle, context: _EffectContext
  ) {
    let key = ThrottleKey(path: context.path, id: throttle.id)
    // A kept action arrives later, outside this batch: it joins its sender's cascade now.
    let origin = _Origin.cascade(cascade(for: origin))
    if throttles[key] == nil { sweepThrottlesIfNeeded() }
    var entry = throttles[key, default: ThrottleState(throttle: throttle)]
    entry.throttle = throttle
    if entry.isWaiting {
      if throttle.latest || entry.pending == nil { entry.pending = (action, origin) }
      throttles[key] = entry
      return
    }
    switch throttle.decide(entry.last) {
    case let .emit(now):
      entry.last = now
      throttles[key] = entry
      deliver(action, origin: origin)
    case let .wait(sleep):
      entry.pending = (action, origin)
      entry.isWaiting = true
      entry.generation &+= 1
      throttles[key] = entry
      let generation = entry.generation
      // The wait is cancellable by the throttle id (and the ids around it), not replaced by
      // the next throttled effect.
      var timerContext = context
      timerContext.throttle = nil
      timerContext.ids.removeAll { $0 == throttle.workID }
      guard case let .cascade(cascade) = origin else { return }
      start(context: timerContext, cascade: cascade, priority: nil) { [weak self] in
        let fired: Bool
        do {
          try await sleep()
          fired = !Task.isCancelled
        } catch {
          fired = false
        }
        await self?.endThrottleWait(
          key, generation: generation, now: fired ? throttle.now() : nil)
      }
    }
  }

  private func endThrottleWait(_ key: ThrottleKey, generation: Int, now: (any Sendable)?) {
    guard var entry = throttles[key], entry.generation == generation, entry.isWaiting else {
      return
    }
    let pending = entry.pending
    entry.pending = nil
    entry.isWaiting = false
    if let now, pending != nil { entry.last = now }
    throttles[key] = entry
    guard now != nil, let pending else { return }
    deliver(pending.action, origin: pending.origin)
  }

  /// Reduces an action now: in the running batch, or in a batch of its own.
  private func deliver(_ action: Action, origin: _Origin) {
    if isSending {
      enqueue(action, origin: origin)
    } else {
      _ = send(action, origin: origin)
    }
  }

  /// Drops the actions kept by the throttles `.cancel(id:)` reaches (all of them under `path`
  /// when `id` is nil); their windows stay, as TCA keeps the time of the last delivery.
  private func dropThrottledActions(under path: [_AnyID], id: _AnyID?) {
    guard hasThrottles else { return }
    for (key, entry) in throttles
    where key.path.starts(with: path) && (id == nil || key.id == id) && entry.isWaiting {
      var entry = entry
      entry.pending = nil
      entry.isWaiting = false
      entry.generation &+= 1
      throttles[key] = entry
    }
    if id == nil { forgetThrottles { $0.path.starts(with: path) } }
  }

  private func forgetThrottles(where isGone: (ThrottleKey) -> Bool) {
    guard hasThrottles else { return }
    for key in throttles.keys where isGone(key) { throttles[key] = nil }
  }

  /// Forgets the windows that have closed with nothing kept (the next action through them
  /// would be delivered at once, as with no entry), once the table has doubled since the last
  /// sweep: memory follows the windows that are open, at an amortized constant cost.
  private func sweepThrottlesIfNeeded() {
    guard throttles.count >= throttleSweepThreshold else { return }
    for (key, entry) in throttles where !entry.isWaiting {
      guard let last = entry.last else {
        throttles[key] = nil
        continue
      }
      if case .emit = entry.throttle.decide(last) { throttles[key] = nil }
    }
    throttleSweepThreshold = max(16, throttles.count * 2)
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

/// Something that wants to hear, on the main actor, that a batch has ended.
@MainActor
protocol _Subscriber: AnyObject {
  func stateDidChange()
}

/// A retained subscriber that can tell it is done.
@MainActor
protocol _Finishable: AnyObject {
  var isFinished: Bool { get }
}

@MainActor
struct _WeakSubscriber {
  weak var subscriber: (any _Subscriber)?
}
