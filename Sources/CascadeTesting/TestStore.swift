import Cascade

/// A store for tests that checks every state change, every action effects send back and every
/// effect's end: the way to test a reducer.
///
/// It runs the real store machinery, with one difference: actions that effects send (through
/// `send` in `.run`, or `.send`) wait in a queue until the test receives them, so each state
/// change is attributed to the action that caused it, and nothing happens behind the test's
/// back.
///
/// ```swift
/// @MainActor
/// @Test func search() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Search.State()) {
///     Search()
///   } withDependencies: {
///     $0.continuousClock = clock
///     $0.schools.search = { _ in [.seoulHigh] }
///   }
///
///   await store.send(.queryChanged("seoul")) { $0.query = "seoul" }
///   await clock.advance(by: .milliseconds(300))
///   await store.receive(Search.Action.results) { $0.results = [.seoulHigh] }
///   await store.finish()
/// }
/// ```
///
/// Effects run deterministically: on the test's ``SerialTestExecutor``, one job at a time on the
/// main thread, interleaved with the test at its `await`s (see ``TestClock`` for time). Other
/// tests running in parallel are not slowed down or reordered by it.
///
/// A failed assertion shows a `−/+` diff of the expected and actual state. Received actions not
/// asserted and effects still running fail the test at ``finish(timeout:fileID:filePath:line:column:)``
/// or when the store is released; a running effect is reported at the `send` that started it.
@MainActor
public final class TestStore<State: Equatable, Action> {
  let store: Store<State, Action>
  let core: _StoreCore<State, Action>
  let ledger = TestStoreLedger()
  private let location: TestLocation
  /// Actions effects sent, waiting for the test, each with the live value of every tracked
  /// shared root when it was sent: a shared change belongs to the next action its effect sends.
  var received: [(action: Action, cascade: _Cascade, shared: [ObjectIdentifier: any Sendable])] =
    []
  /// For each action in `received`, the effect that sent it, when it came from an effect task.
  /// Kept beside `received`, not as a fourth element of its tuples, which would slow every
  /// touch of `received` in this unspecialized generic code.
  var receivedEffects: [_TestEffectLifetime?] = []
  /// The shared values the state has held, each with the value the test last asserted.
  var sharedRoots: [ObjectIdentifier: any _AnySharedRoot] = [:]
  var waiter: CheckedContinuation<Bool, Never>?
  /// The test's executor, where the store's effects run.
  let executor: SerialTestExecutor
  /// The store's stack element id sequence, and where it stood before the step being checked.
  let stackElementIDs: _StackElementIDGenerator
  var stackElementIDsBefore = 0

  /// Whether the feature dismissed itself (`@Dependency(\.dismiss)`), as it does when it runs
  /// presented by a parent: the test store then plays that parent, ends the effects in flight
  /// and takes no more actions.
  ///
  /// ```swift
  /// await store.receive(RecordMeeting.Action.timerTick) { $0.secondsElapsed = 60 }
  /// #expect(store.isDismissed)
  /// ```
  public private(set) var isDismissed = false

  /// What a non-exhaustive store skipped and showed (`.off(showSkippedAssertions: true)`), in
  /// order: for the project's own tests, which check that each is shown.
  package private(set) var skippedAssertions: [String] = []

  /// The number of effect tasks still running.
  package var runningEffectCount: Int { core.runner.activeCount }

  /// Shows an assertion a non-exhaustive test skipped, and keeps it in ``skippedAssertions``.
  func showSkipped(_ message: String, at location: TestLocation) {
    skippedAssertions.append(message)
    reportSkipped(message, at: location)
  }

  /// Whether actions effects sent keep waiting, in order per effect, across the test's sends,
  /// until the test receives each: `false` by default. Set it to replay an ``Explorer``
  /// counterexample, where an effect's response arrives after later user actions, or the
  /// second effect's response before the first's.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// store.holdsReceivedActions = true
  /// await store.send(.queryChanged("a"))
  /// await store.send(.queryChanged("ab"))        // the response to "a" still waits
  /// await store.receive(.response(["apple"]))    // and arrives now
  /// ```
  ///
  /// While it is set, `send` leaves waiting actions waiting, and `receive` takes the earliest
  /// waiting action that matches among the oldest waiting action of each effect (actions a
  /// reducer's `.send` queued count as one effect of their own).
  public var holdsReceivedActions = false

  /// With ``holdsReceivedActions``, runs `body` (a send, a reduced received action) so that
  /// the effects it starts stay, once their work is done, until the test has received their
  /// last action: until then the feature cannot tell they sent it, and a `.cancel` must still
  /// find and end them (discarding what they hold).
  func holdingEffects<R>(_ body: () -> R) -> R {
    guard holdsReceivedActions else { return body() }
    let observer = _TestEffectObserver { _ in
    } ended: { [weak self] lifetime in
      guard let self, receivedEffects.contains(where: { $0 === lifetime }) else { return }
      await lifetime.park()
    }
    return _TestEffectLifetime.$observer.withValue(observer, operation: body)
  }

  /// Lets an effect that waited for the test to receive its actions end, once none is left.
  func releaseIfDone(_ effect: _TestEffectLifetime?) {
    guard let effect, !receivedEffects.contains(where: { $0 === effect }) else { return }
    effect.release()
  }

  /// How much the store checks; `.on` by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet { ledger.setExhaustive(exhaustivity == .on) }
  }

  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then puts the previous
  /// setting back (also when `operation` throws).
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.onAppear)           // the loading details are not checked here
  ///   await store.skipReceivedActions()
  /// }
  /// await store.send(.saveButtonTapped) {   // but everything from here on is
  ///   $0.isSaving = true
  /// }
  /// ```
  ///
  /// What the block leaves behind (an action received but not asserted, an effect still
  /// running) is checked by the setting in force when it is checked: at ``finish(timeout:fileID:filePath:line:column:)``
  /// or when the store goes away, under the restored setting.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try await operation()
  }

  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then puts the previous
  /// setting back: the synchronous form, for assertions on ``state``.
  ///
  /// ```swift
  /// store.withExhaustivity(.off) {
  ///   #expect(store.state.results.count == 3)
  /// }
  /// ```
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () throws -> R
  ) rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try operation()
  }

  /// How long `receive` and `finish` wait, with the test's effects doing no work, before they
  /// fail: time the effects spend working (on a slow or busy machine) does not count. Only a
  /// failing test ever waits this long: a passing one goes on as soon as the action arrives or
  /// the effects end.
  public var timeout: Duration = .seconds(1)

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from, made with the test's dependencies (so keyed
  ///     `Shared` values in it use the test's storage).
  ///   - reducer: The reducer under test.
  ///   - prepareDependencies: The dependencies this test provides. Anything the reducer uses
  ///     without a test value fails the test.
  ///   - fileID: The file of the call, where failures about the store as a whole are reported;
  ///     leave it to the default, as for `filePath`, `line` and `column`.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public init<R: Reducer>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    reportRuntimeWarningsAsTestFailures()
    self.executor = .current
    self.location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    // Prepared once: the initial state and the store share one set of values, so a stateful
    // dependency (`.incrementing` UUIDs) goes on where the initial state left it, and one stack
    // id sequence, so stacks built in either never share an id.
    let stackElementIDs = _StackElementIDGenerator()
    self.stackElementIDs = stackElementIDs
    var values = DependencyValues.current.withFreshCache()
    values.context = .test
    values._stackElementIDs = stackElementIDs
    // The test store stands in for the parent that would have presented the feature; a test's
    // own `dismiss` (set below) wins.
    let dismissal = TestStoreDismissal()
    values.dismiss = DismissEffect { await dismissal.dismiss() }
    DependencyValues._set(&values, prepareDependencies)
    let prepared = values
    let state = withDependencies {
      $0 = prepared
    } operation: {
      initialState()
    }
    // Stacks built before the test store (outside its sequence) keep their ids; new screens
    // get ids above them, in the reducer and in the test's expectations alike.
    stackElementIDs.skip(past: _nextFreeStackElementID(in: state) - 1)
    self.store = Store(initialState: state, reducer: reducer) { $0 = prepared }
    guard let core = store.core as? _StoreCore<State, Action> else {
      fatalError("TestStore: a root store's core has the store's own state and action types.")
    }
    self.core = core
    core.interceptor = { [weak self] action, cascade in
      self?.enqueueReceived(action, cascade: cascade)
    }
    dismissal.store = { [weak self] in self?.featureDismissed() }
    trackShared()
  }

  deinit {
    for (message, location) in ledger.outstandingFailures(endingAt: location) {
      reportFailure(message, at: location)
    }
  }

  /// The current state; inside a `send` or `receive` assertion closure, the state from before
  /// the action, as in TCA, so that the closure must describe the change: `$0 = store.state`
  /// there expects nothing to change.
  ///
  /// ```swift
  /// await store.send(.incrementTapped) {
  ///   $0.count = store.state.count + 1   // the count before the tap, plus one
  /// }
  /// #expect(store.state.count == 1)
  /// ```
  public var state: State { stateBeforeAction ?? core.state }

  /// The state before the action being checked, while its assertion closure runs.
  var stateBeforeAction: State?

  /// The dependencies the reducer and new effects see; change them mid-test to change what
  /// happens next.
  ///
  /// ```swift
  /// store.dependencies.apiClient.fetch = { throw URLError(.notConnectedToInternet) }
  /// await store.send(.retryTapped) { $0.isLoading = true }
  /// ```
  public var dependencies: DependencyValues {
    get { core.dependencyValues }
    set { core.dependencyValues = newValue }
  }

  /// Sends an action and checks the state change it caused.
  ///
  /// ```swift
  /// await store.send(.incrementTapped) { $0.count = 1 }
  /// ```
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - updateStateToExpectedResult: Mutates the state as it was before the action into the
  ///     state you expect after it. Omit it when the action changes nothing. It runs with the
  ///     store's dependencies, as the reducer did: a `Model()` that reads `@Dependency(\.uuid)`
  ///     takes the next id of the store's generator (not the one the reducer took), so give
  ///     models made in the closure their ids explicitly.
  ///   - fileID: The file of the call, where failures of this send, and effects it started that
  ///     are still running at the end, are reported; leave it to the default, as for
  ///     `filePath`, `line` and `column`.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A task for the effects the action started.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !isDismissed else {
      reportFailure(
        """
        Cannot send \(describe(action)): the feature dismissed itself, so nothing can send it \
        actions any more.

        Check 'store.isDismissed' instead of sending after the dismissal.
        """, at: location)
      return TestStoreTask(task: StoreTask(nil), timeout: timeout)
    }
    if !received.isEmpty, !holdsReceivedActions {
      if exhaustivity == .on {
        reportFailure(
          """
          Must handle \(received.count) received action\(received.count == 1 ? "" : "s") \
          before sending an action:

          \(received.map { "  • " + describe($0.action) }.joined(separator: "\n"))

          Assert them with 'await store.receive(...)' first.
          """, at: location)
      } else {
        skipQueuedActions(at: location)
      }
    }
    trackShared()
    let before = core.state
    stackElementIDsBefore = stackElementIDs.peek()
    // Warnings the library raises while the reducer runs name this line.
    let task = _UserSite.$current.withValue(_UserSite(fileID: fileID, line: line)) {
      holdingEffects { store.send(action) }
    }
    if let cascade = task.cascade {
      ledger.recordSend(.init(cascade: cascade, action: describe(action), location: location))
    }
    checkState(before: before, update: updateStateToExpectedResult, toSend: true, at: location)
    discardActionsOfCancelledEffects()
    // Effects need time to start, and effects the action cancelled time to wind down (a test
    // may end here: a cancelled effect is over). An action with neither is done.
    if task.cascade != nil || !received.isEmpty || !ledger.runningSends.isEmpty {
      await settle()
    }
    return TestStoreTask(task: task, timeout: timeout)
  }

  /// Checks state that changed outside an action, for example shared state another part of
  /// the program wrote.
  ///
  /// ```swift
  /// ranking.withLock { $0.scores["Seoul High"] = 10 }
  /// store.assert { $0.$ranking.withLock { $0.scores["Seoul High"] = 10 } }
  /// ```
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    trackShared()
    let roots = beginSharedExpectations(fromBaseline: true, toSend: false)
    defer { endSharedExpectations(roots, toSend: false) }
    var expected = core.state
    do {
      try withDependencies {
        $0 = core.dependencyValues
      } operation: {
        try inSharedMode(.expected) { try updateStateToExpectedResult(&expected) }
      }
    } catch {
      reportFailure("The assertion threw: \(error)", at: location)
      return
    }
    if let diff = mismatch(expected, core.state, toSend: false) {
      reportFailure(
        "The state does not match the expectation:\n\n\(indented(diff))\n\n(Expected: −, Actual: +)",
        at: location)
    }
  }

  /// Checks the change from `before` to the current state against the test's expectation.
  ///
  /// `toSend` tells a `send` (whose effects' shared changes belong to later steps) from a
  /// `receive`.
  func checkState(
    before: State,
    update: ((inout State) throws -> Void)?,
    toSend: Bool,
    at location: TestLocation
  ) {
    trackShared()
    let after = core.state
    let roots = beginSharedExpectations(fromBaseline: exhaustivity == .on, toSend: toSend)
    defer { endSharedExpectations(roots, toSend: toSend) }
    // The closure runs with the store's dependencies, as TCA's does (a stateful one, such as
    // `.incrementing` UUIDs, goes on from where the reducer left it), and sees the state from
    // before the action as `store.state`. The expectation pushes with the ids the action
    // pushed with: the store's stack id sequence as it was before the action.
    let replayedIDs = _StackElementIDGenerator(startingAt: stackElementIDsBefore)
    let storeDependencies = core.dependencyValues
    stateBeforeAction = before
    defer { stateBeforeAction = nil }
    func expect(from base: State) -> State? {
      var expected = base
      do {
        try withDependencies {
          $0 = storeDependencies
          $0._stackElementIDs = replayedIDs
        } operation: {
          try inSharedMode(.expected) { try update?(&expected) }
        }
        return expected
      } catch {
        reportFailure("The assertion threw: \(error)", at: location)
        return nil
      }
    }
    switch exhaustivity {
    case .on:
      guard let expected = expect(from: before),
        let diff = mismatch(expected, after, toSend: toSend)
      else {
        return
      }
      let headline =
        update == nil
        ? "The state was not expected to change, but it did:"
        : "A state change does not match the expectation:"
      reportFailure("\(headline)\n\n\(indented(diff))\n\n(Expected: −, Actual: +)", at: location)
    case let .off(showSkipped):
      // Only the fields the closure sets are checked: applied to the actual new state, it must
      // change nothing.
      guard let expected = expect(from: after) else { return }
      if let diff = mismatch(expected, after, toSend: toSend) {
        reportFailure(
          "A state change does not match the expectation:\n\n\(indented(diff))\n\n(Expected: −, Actual: +)",
          at: location)
      } else if showSkipped, let full = expect(from: before),
        let diff = mismatch(full, after, toSend: toSend)
      {
        self.showSkipped("state changes not asserted:\n\n\(indented(diff))", at: location)
      }
    }
  }

  /// The diff of the expected state against the actual one, or `nil` if they are equal. The
  /// expected side reads shared values as the test expects them, the actual side live.
  func mismatch(_ expected: State, _ actual: State, toSend: Bool) -> String? {
    inSharedMode(.attributed(toSend: toSend)) {
      // Equal states need no dump: building one costs microseconds.
      let equal =
        sharedRoots.isEmpty
        ? expected == actual
        : _SharedAssertion.$isComparing.withValue(true) { expected == actual }
      guard !equal else { return nil }
      let expectedDump = inSharedMode(.expected) { stateDump(expected) }
      let actualDump = stateDump(actual)
      if let diff = _dumpDiff(expectedDump, actualDump) { return diff }
      // `==` has the last word: a difference the dump cannot show still fails, and says where.
      let unequal = inSharedMode(.expected) { _firstUnequal(expected, actual) }
      let place = unequal.path.isEmpty ? "the state itself" : "'\(unequal.path)'"
      return """
        \(indented(actualDump, by: 2))

        The expected and actual states print alike, but '==' says they differ: \
        \(place), a '\(unequal.type)', compared unequal. Its dump does not show what \
        differs; give the type a 'description' or a 'customMirror' that does.
        """
    }
  }

  /// Runs `body` with shared values read in `mode`; with no shared value in the state there
  /// is nothing to switch, and the task-local binding is skipped.
  func inSharedMode<R>(_ mode: _SharedAssertion.Mode, _ body: () throws -> R) rethrows -> R {
    if sharedRoots.isEmpty { return try body() }
    return try _SharedAssertion.$mode.withValue(mode, operation: body)
  }

  /// Starts tracking the shared values the state now holds, from their current value.
  func trackShared() {
    for root in _sharedRoots(in: core.state) where sharedRoots[ObjectIdentifier(root)] == nil {
      sharedRoots[ObjectIdentifier(root)] = root
      root._recordBaseline()
      ledger.trackShared(root)
    }
  }

  func beginSharedExpectations(fromBaseline: Bool, toSend: Bool) -> [any _AnySharedRoot] {
    let roots = Array(sharedRoots.values)
    for root in roots { root._beginExpectation(fromBaseline: fromBaseline, toSend: toSend) }
    return roots
  }

  /// Ends the expectations and takes the values the step made as asserted: a mismatch was
  /// reported once, at the step that made it.
  func endSharedExpectations(_ roots: [any _AnySharedRoot], toSend: Bool) {
    for root in roots { root._endStep(toSend: toSend) }
  }

  func enqueueReceived(_ action: Action, cascade: _Cascade) {
    let shared = sharedRoots.isEmpty ? [:] : sharedRoots.mapValues { $0._liveSnapshot() }
    received.append((action, cascade, shared))
    receivedEffects.append(_TestEffectLifetime.current)
    ledger.recordReceived(describe(action))
    if let waiter {
      self.waiter = nil
      waiter.resume(returning: true)
    }
  }

  func describe(_ action: Action) -> String { compactDump(action) }

  /// Discards the actions waiting for the test whose effect has been cancelled since it sent
  /// them (the step just reduced dismissed a screen, or cancelled by id): a store that reduced
  /// each action as it came would have ended that effect before it sent them.
  func discardActionsOfCancelledEffects() {
    // `receivedEffects`, not `received`: its element type is concrete, so an empty check
    // costs nothing, where touching `received` in this generic code looks up its metadata.
    guard receivedEffects.contains(where: { $0?.isCancelled == true }) else { return }
    var kept: [Int] = []
    for (index, effect) in receivedEffects.enumerated() where effect?.isCancelled != true {
      kept.append(index)
    }
    let effects = kept.map { receivedEffects[$0] }
    received = kept.map { received[$0] }
    receivedEffects = effects
    ledger.keepReceived(at: kept)
  }

  /// The feature called `dismiss()`: what its parent would do, the test store does. Effects in
  /// flight are cancelled, and end as a dismissed child's do.
  func featureDismissed() {
    isDismissed = true
    core.runner.cancelAll()
  }

  /// Lets tasks that effects just started reach their next suspension before the test goes on
  /// (see ``SerialTestExecutor/settle()``). Never a wall-clock wait, and never a wait on
  /// another task.
  func settle() async { await executor.settle() }
}

/// The link from a test store's `dismiss` dependency, made before the store, to the store.
@MainActor
final class TestStoreDismissal: Sendable {
  /// Set once the test store exists; `nil` when it is gone.
  var store: (() -> Void)?

  nonisolated init() {}

  func dismiss() { store?() }
}
