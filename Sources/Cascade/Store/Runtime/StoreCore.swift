/// The root of a store tree: the state, the reducer and the send loop.
///
/// The loop is `@inlinable` so that it is specialized, with the feature's reducer, in the
/// module that creates the store: unspecialized generic code would look up the metadata of
/// its generic types on every action. Interpreting effects other than `.none` and `.send` is
/// out of line, in Effect/EffectInterpreter.swift, which also declares the effect state the
/// core holds (`effects`: the batch's cascade, the tasks a concatenation collects, the
/// throttle windows); observation is in Observation.swift beside this file.
///
/// Below the core, in the order a send meets them: its base, where the state lives
/// (`_StateBox`); who started the running batch (`_BatchOrigin`); the batch's dependencies
/// (`_BatchDependencies`). The cascade a send's effects share (`_StoreCascade`) is the effect
/// runner's, in Effect/EffectRunner.swift.
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
  /// The effect room's state for this store (Effect/EffectInterpreter.swift). Unchecked as the
  /// two above: touched only on the main actor, in short accesses that call nothing out (its
  /// own methods change the state alone).
  @usableFromInline @exclusivity(unchecked) var effects = _EffectState<Action>()

  /// The number of throttle windows the store remembers (tests check it stays bounded).
  package override var throttleEntryCount: Int { effects.throttles.count }

  /// Not inlinable: it runs once per store, and inlined into a client built for testing
  /// (`-enable-testing -O`) it refers to the internal effect state's field offsets, which the
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
    // Unretained, so the send neither retains nor releases it: the store holds its box for the
    // whole batch, and `dependencyValues` keeps a box replaced meanwhile alive.
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
    let started = effects.batchCascade
    effects.batchCascade = nil
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
    runner.tearDown()
    storage.deinitialize(count: 1)
    storage.deallocate()
  }
}

/// Who started the send-loop batch that is running: what a ``Recorder`` reads to tell an
/// action the user sent from one an effect sent.
///
/// A batch begins with one action: sent from outside the store (a user's tap, a test's `send`)
/// or by an effect's `Send`. Every other action reduced in the batch was sent synchronously by
/// an effect (`.send`). The loop writes two words per batch, never per action; a recorder
/// compares the serial with the last one it saw to find the batch's first action.
@usableFromInline
enum _BatchOrigin {
  // `nonisolated(unsafe)`: written only by the send loop, which runs on the main actor, and
  // read only by reducers running inside that loop.
  @usableFromInline nonisolated(unsafe) static var serial: UInt64 = 0
  @usableFromInline nonisolated(unsafe) static var startedByUser = false

  @inlinable
  static func begin(startedByUser: Bool) {
    serial &+= 1
    Self.startedByUser = startedByUser
  }
}

/// Dependencies boxed for the slot below; a store allocates its box once.
@usableFromInline
final class _DependencyBox: Sendable {
  @usableFromInline let values: DependencyValues
  @usableFromInline init(_ values: DependencyValues) { self.values = values }
}

/// The dependencies of the send loop running on this thread.
///
/// A store runs every batch inside the dependencies it pinned. Binding a task-local for each
/// batch costs an allocation (outside a task, Swift keeps task-locals in a heap-allocated
/// fallback), so the loop publishes its values in a slot instead. `DependencyValues.current`
/// reads this slot first. Overrides made while a batch runs (`withDependencies`, `.dependency`)
/// stack on the slot too, so they keep their precedence; effects capture the values when created
/// and bind them as a task-local in their own task, where no batch runs.
///
/// The slot is one per process, owned by the thread running a send loop: send loops run on the
/// main actor only, so there is at most one such thread at a time, and it is the only one that
/// writes the slot, with two atomic stores and a thread-id read per batch rather than a
/// thread-local's calls. Any other thread reads the owner, sees it is not itself, and never
/// touches the box. Where the OS gives no thread identity (the portable fallback, see
/// `Internal/Platform.swift`), the slot is a task-local instead.
@usableFromInline
enum _BatchDependencies {
  @inlinable static var current: _DependencyBox? { _SendLoopSlot.current }

  @inlinable
  static func with<Result>(_ box: _DependencyBox, _ body: () throws -> Result) rethrows -> Result {
    try withExtendedLifetime(box) { try with(unretained: Unmanaged.passUnretained(box), body) }
  }

  /// Publishes `box` for `body`, for a caller that keeps the box alive until `body` returns.
  @inlinable
  static func with<Result>(
    unretained box: Unmanaged<_DependencyBox>, _ body: () throws -> Result
  ) rethrows -> Result {
    try _SendLoopSlot.with(unretained: box, body)
  }
}
