import Cascade

/// Random sessions through a real store: seeded sequences of actions, the app left to settle
/// after each, and an invariant checked after every step. A failure is shrunk to the shortest
/// list of actions that still fails and reported once, with its seed, so it can be replayed.
///
/// ```swift
/// @MainActor @Test func countNeverGoesNegative() async {
///   let fuzzer = Fuzzer<Counter.State, Counter.Action, TestClock>(steps: 2_000) {
///     let clock = TestClock()
///     let store = Store(initialState: Counter.State()) { Counter() } withDependencies: {
///       $0.continuousClock = clock
///     }
///     return FuzzSubject(store: store, context: clock)
///   } action: { state, clock, random in
///     [.incrementTapped, .decrementTapped, .toggleTimerTapped].randomElement(using: &random)!
///   } settle: { task, clock in
///     await clock.advance(by: .milliseconds(300))
///   } invariant: { step, clock in
///     step.after.count >= 0 ? nil : "count \(step.after.count) after \(step.action)"
///   }
///   let result = await fuzzer.run(seeds: [1, 2, 3, 4, 5])
///   #expect(result.actionCount == 10_000)
/// }
/// ```
///
/// Each run makes a fresh store with `setUp` (so a `TestClock` or an in-memory client made
/// there is fresh too), then, for every step: picks an action from the state and the seeded
/// generator (`action`), sends it, waits for the app to settle (`settle`), and checks
/// `invariant`, which returns a description of what is wrong, or `nil`. Runtime warnings
/// reported during a step (an action for a screen already gone, say) fail it too, unless
/// `allowsWarning` accepts their message; the accepted ones are in ``FuzzStep/warnings``.
///
/// On the first failure, the recorded actions are replayed on fresh stores, never drawn from
/// the generator again: first the prefix up to the failing step, then with chunks and single
/// actions removed (delta debugging) while the same kind of failure (an invariant, or an
/// unexpected warning) still happens. One test failure is reported at the `run` call, with the
/// seed, the failing step, the invariant's message and the shortest list found, one action per
/// line.
///
/// `invariant` runs on every replay as well: a model of what the state should be (the
/// bookmarks toggled so far, the taps made) belongs in the context and is updated there, from
/// the step's action and `before` state, never in `action`.
@MainActor
public struct Fuzzer<State, Action, Context> {
  /// The number of actions each seed's run sends.
  public var steps: Int
  /// The most replays the shrinking may make; the shortest list found by then is reported.
  public var maxReplays: Int

  let setUp: @MainActor () async -> FuzzSubject<State, Action, Context>
  let nextAction: @MainActor (State, Context, inout SeededGenerator) -> Action
  let settle: @MainActor (StoreTask, Context) async -> Void
  let allowsWarning: @MainActor (String) -> Bool
  let invariant: @MainActor (FuzzStep<State, Action>, inout Context) -> String?

  /// - Parameters:
  ///   - steps: The number of actions each seed's run sends.
  ///   - maxReplays: The most replays shrinking may make.
  ///   - setUp: Makes a fresh store, and the context the other closures see (the test clock,
  ///     the in-memory clients, a model of what the state should be).
  ///   - action: Picks the next action from the state, the context and the seeded generator.
  ///     Draw every random choice from the generator, so that a seed is a whole session.
  ///   - settle: Lets the app settle after an action was sent (advance a test clock, yield,
  ///     or `await task.finish()`). By default, yields a few times.
  ///   - allowsWarning: Whether a runtime warning's message is expected (actions for screens
  ///     already gone, say). By default, none is.
  ///   - invariant: What must hold after every step: `nil`, or a description of what is wrong.
  public init(
    steps: Int,
    maxReplays: Int = 500,
    setUp: @escaping @MainActor () async -> FuzzSubject<State, Action, Context>,
    action:
      @escaping @MainActor (
        _ state: State, _ context: Context, _ random: inout SeededGenerator
      ) -> Action,
    settle: @escaping @MainActor (_ task: StoreTask, _ context: Context) async -> Void = {
      _, _ in for _ in 0..<16 { await Task.yield() }
    },
    allowsWarning: @escaping @MainActor (_ message: String) -> Bool = { _ in false },
    invariant:
      @escaping @MainActor (
        _ step: FuzzStep<State, Action>, _ context: inout Context
      ) -> String?
  ) {
    self.steps = steps
    self.maxReplays = maxReplays
    self.setUp = setUp
    self.nextAction = action
    self.settle = settle
    self.allowsWarning = allowsWarning
    self.invariant = invariant
  }

  /// Runs one session per seed, in order, and stops at the first failure, which it shrinks and
  /// reports as one test failure at this call.
  ///
  /// `reportsFailure: false` returns the failure in the result without failing the test, for
  /// a test that expects the fuzzer to find a planted bug and checks what it found:
  ///
  /// ```swift
  /// let result = await fuzzer.run(seeds: [1, 2, 3], reportsFailure: false)
  /// #expect(result.failure?.shrunkActions == [.increment, .delayedTick])
  /// ```
  @discardableResult
  public func run(
    seeds: [UInt64],
    reportsFailure: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> FuzzResult<Action> {
    var actionCount = 0
    var ran: [UInt64] = []
    for seed in seeds {
      ran.append(seed)
      var random = SeededGenerator(seed: seed)
      let session = await execute(nil, &random)
      actionCount += session.actions.count
      guard let violation = session.violation else { continue }
      let failure = await shrink(seed: seed, actions: session.actions, violation: violation)
      if reportsFailure {
        let location = TestLocation(
          fileID: fileID, filePath: filePath, line: line, column: column)
        reportFailure(failure.report, at: location)
      }
      return FuzzResult(seeds: ran, actionCount: actionCount, failure: failure)
    }
    return FuzzResult(seeds: ran, actionCount: actionCount, failure: nil)
  }

  /// Sends `actions` on a fresh store, settling and checking after each as a run does, and
  /// returns the first violation, or `nil` when every step holds. Reports nothing: use it to
  /// replay a failure's ``FuzzFailure/shrunkActions`` while fixing it.
  ///
  /// ```swift
  /// let violation = await fuzzer.replay([.incrementTapped, .toggleTimerTapped])
  /// #expect(violation == nil)
  /// ```
  public func replay(_ actions: [Action]) async -> FuzzViolation? {
    var random = SeededGenerator(seed: 0)
    return await execute(actions, &random).violation
  }
}

/// A store under fuzzing, and what the fuzzer's closures need beside it: a test clock, test
/// clients, a model of what the state should be (`Void` when nothing is needed).
@MainActor
public struct FuzzSubject<State, Action, Context> {
  /// The store the fuzzer sends actions to.
  public let store: Store<State, Action>
  /// What the fuzzer's closures see beside the store: a test clock, test clients, a model of
  /// what the state should be.
  public var context: Context

  /// A store under fuzzing with the context the fuzzer's closures see; what `setUp` returns.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let store = Store(initialState: Counter.State()) { Counter() } withDependencies: {
  ///   $0.continuousClock = clock
  /// }
  /// return FuzzSubject(store: store, context: clock)
  /// ```
  public init(store: Store<State, Action>, context: Context) {
    self.store = store
    self.context = context
  }
}

extension FuzzSubject where Context == Void {
  /// A store under fuzzing, for closures that need nothing beside it.
  ///
  /// ```swift
  /// return FuzzSubject(store: Store(initialState: Counter.State()) { Counter() })
  /// ```
  public init(store: Store<State, Action>) { self.init(store: store, context: ()) }
}

/// One step of a fuzzing session, as the invariant sees it.
public struct FuzzStep<State, Action> {
  /// The step's position in its session (or replay), from 0.
  public let index: Int
  /// The action sent.
  public let action: Action
  /// The state before the action was sent.
  public let before: State
  /// The state once the app settled.
  public let after: State
  /// The runtime warnings the step reported that `allowsWarning` accepted.
  public let warnings: [String]
}
