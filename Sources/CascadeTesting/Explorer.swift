import Cascade

/// Checks invariants on every ordering of user actions, effect deliveries and clock advances
/// up to a depth, breadth-first, and reports the shortest ordering that breaks one.
///
/// ```swift
/// @MainActor @Test func searchShowsTheLatestQuery() async {
///   let explorer = Explorer<Search.State, Search.Action, Void>(depth: 5) {
///     let clock = TestClock()
///     let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
///       $0.continuousClock = clock
///       $0.searchClient.search = { query in [query.uppercased()] }
///     }
///     return ExplorationSubject(store: store, clock: clock)
///   } actions: { state, _ in
///     [.queryChanged("a"), .queryChanged("b")]
///   } invariant: { state, _ in
///     state.results.allSatisfy { $0 == state.query.uppercased() }
///       ? nil : "results \(state.results) for query \(state.query)"
///   }
///   let result = await explorer.run()
///   #expect(result.isComplete)
/// }
/// ```
///
/// An *event* is one of:
/// - a user action, one of those `actions` returns for the current state;
/// - the delivery of the oldest action one effect in flight has sent and the feature has not
///   reduced yet (each effect keeps its own queue, so a response can arrive before or after
///   any later user action, and two effects' actions interleave either way);
/// - advancing the subject's ``TestClock`` to the earliest deadline a task sleeps until.
///
/// After each event the effects run, on the test's ``SerialTestExecutor``, until they are
/// quiet again; actions a reducer sends with `.send` are reduced at once, in the same event,
/// as a real store does. A *configuration* is what the feature is between events: its state,
/// its effects in flight and the actions they hold, the clock's sleepers.
///
/// The search is breadth-first: every path of one event is checked, then every path of two,
/// and so on, so the first failure found is a shortest one. A configuration equivalent to
/// one already reached (by ``ExplorationKey``) is not explored again. Effects cannot be
/// copied, so a configuration with effects in flight is reached again by replaying its path
/// on a fresh subject from `setUp`; with `stateHoldsEverything`, a configuration with nothing
/// in flight is restored instead by setting its state on one store, which is much faster.
///
/// A failure is a state `invariant` or a `transition` invariant that returns a message, or a
/// runtime warning (an action for a screen already gone, say) that `allowsWarning` does not
/// accept. It is reported once, at the `run` call, with the path one event per line and as a
/// `TestStore` test to paste.
@MainActor
public struct Explorer<State: Equatable, Action, Context> {
  /// The most events on a path.
  public var depth: Int
  /// Which configurations count as the same (and are explored once).
  public var key: ExplorationKey<State, Context>
  /// The most configurations to store before the search stops, or `nil` for no limit.
  public var maxConfigurations: Int?
  /// The most time the search may take (measured on the continuous clock), or `nil`.
  public var timeLimit: Duration?
  /// Whether the state is everything that shapes what the feature does next, once no effect
  /// is in flight (see ``Explorer/init(depth:key:maxConfigurations:timeLimit:stateHoldsEverything:setUp:actions:allowsWarning:invariant:transition:)``).
  public var stateHoldsEverything: Bool

  let setUp: @MainActor () async -> ExplorationSubject<State, Action, Context>
  let actions: @MainActor (State, Context) -> [Action]
  let allowsWarning: @MainActor (String) -> Bool
  let invariant: @MainActor (State, Context) -> String?
  let transition: (@MainActor (ExplorationStep<State, Action>, Context) -> String?)?

  /// An explorer of the feature `setUp` makes.
  ///
  /// ```swift
  /// let explorer = Explorer<Counter.State, Counter.Action, Void>(
  ///   depth: 8, key: .state, stateHoldsEverything: true
  /// ) {
  ///   ExplorationSubject(store: TestStore(initialState: Counter.State()) { Counter() })
  /// } actions: { _, _ in
  ///   [.incrementTapped, .decrementTapped]
  /// } invariant: { state, _ in
  ///   abs(state.count) <= 8 ? nil : "count \(state.count)"
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - depth: The most events on a path.
  ///   - key: Which configurations count as the same; ``ExplorationKey/stateText`` by default.
  ///     Use ``ExplorationKey/none`` to explore every path, however many reach the same place.
  ///   - maxConfigurations: The most configurations to store; the search then stops and says
  ///     how far it got.
  ///   - timeLimit: The most time the search may take; it then stops and says how far it got.
  ///   - stateHoldsEverything: Set it when nothing outside the state shapes what the feature
  ///     does next once no effect is in flight: no dependency with a memory of its own that the
  ///     reducer calls (an incrementing UUID, a random generator), no client the reducer
  ///     writes to, no `Shared` value. Configurations with nothing in flight are then restored
  ///     by setting their state on one store, not by replaying their path. An initial state
  ///     holding a `Shared` value turns it off.
  ///   - setUp: Makes a fresh subject: a `TestStore`, its `TestClock`, and the context the other
  ///     closures see (in-memory clients). Called once per replay: everything it makes must be
  ///     new, and the same every time.
  ///   - actions: The user actions enabled in a state, in the order to try them.
  ///   - allowsWarning: Whether a runtime warning's message is expected. By default none is.
  ///   - invariant: What must hold in every state reached: `nil`, or what is wrong.
  ///   - transition: What must hold of every event: `nil`, or what is wrong.
  public init(
    depth: Int,
    key: ExplorationKey<State, Context> = .stateText,
    maxConfigurations: Int? = nil,
    timeLimit: Duration? = nil,
    stateHoldsEverything: Bool = false,
    setUp: @escaping @MainActor () async -> ExplorationSubject<State, Action, Context>,
    actions: @escaping @MainActor (_ state: State, _ context: Context) -> [Action],
    allowsWarning: @escaping @MainActor (_ message: String) -> Bool = { _ in false },
    invariant: @escaping @MainActor (_ state: State, _ context: Context) -> String? = { _, _ in
      nil
    },
    transition: (
      @MainActor (_ step: ExplorationStep<State, Action>, _ context: Context) -> String?
    )? = nil
  ) {
    self.depth = depth
    self.key = key
    self.maxConfigurations = maxConfigurations
    self.timeLimit = timeLimit
    self.stateHoldsEverything = stateHoldsEverything
    self.setUp = setUp
    self.actions = actions
    self.allowsWarning = allowsWarning
    self.invariant = invariant
    self.transition = transition
  }

  /// Explores every path up to ``depth`` (or until a budget runs out), and reports the first
  /// failure, a shortest one, as one test failure at this call.
  ///
  /// ```swift
  /// let result = await explorer.run()
  /// #expect(result.isComplete)
  /// print(result.report)   // configurations, transitions, depth reached, time
  /// ```
  ///
  /// `reportsFailure: false` returns the failure in the result without failing the test, for
  /// a test that expects a planted bug to be found:
  ///
  /// ```swift
  /// let result = await explorer.run(reportsFailure: false)
  /// #expect(result.counterexample?.depth == 3)
  /// ```
  @discardableResult
  public func run(
    reportsFailure: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> ExplorationResult<State, Action> {
    let search = ExplorerSearch(explorer: self)
    let result = await search.run()
    if reportsFailure, result.counterexample != nil {
      reportFailure(
        result.report,
        at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return result
  }
}

/// A feature under exploration: a `TestStore` (made fresh, as its test would), the
/// ``TestClock`` its effects sleep on, and what the explorer's closures need beside them.
@MainActor
public struct ExplorationSubject<State: Equatable, Action, Context> {
  /// The store the explorer drives (it takes the store over: make a new one for each subject).
  public let store: TestStore<State, Action>
  /// The clock the feature's effects sleep on, advanced by the explorer; `nil` when none does.
  public let clock: TestClock?
  /// What the explorer's closures see beside the state: in-memory clients, say.
  public let context: Context

  /// A subject for an ``Explorer``: what its `setUp` returns.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let bookmarks = InMemoryBookmarks()
  /// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
  ///   $0.continuousClock = clock
  ///   $0.bookmarks = bookmarks.client
  /// }
  /// return ExplorationSubject(store: store, clock: clock, context: bookmarks)
  /// ```
  public init(store: TestStore<State, Action>, clock: TestClock? = nil, context: Context) {
    self.store = store
    self.clock = clock
    self.context = context
  }
}

extension ExplorationSubject where Context == Void {
  /// A subject for an ``Explorer`` whose closures need nothing beside the state.
  ///
  /// ```swift
  /// return ExplorationSubject(store: TestStore(initialState: Counter.State()) { Counter() })
  /// ```
  public init(store: TestStore<State, Action>, clock: TestClock? = nil) {
    self.init(store: store, clock: clock, context: ())
  }
}

/// Which configurations an ``Explorer`` takes as the same, to explore each once.
///
/// Two configurations are the same when this key of their states (and context) is equal
/// *and* their effects in flight are the same: the explorer adds that part itself. An effect
/// is named by the action that started it and the key of the state it started in (what the
/// reducer returned it for), with how many actions it has delivered, the actions it still
/// holds, how long it has run on the test clock and whether its work ended;
/// the clock's sleepers are compared by their deadlines from now; a store's next stack
/// element id and whether the feature dismissed itself are compared too.
///
/// ```swift
/// Explorer(depth: 6, key: .custom { state, bookmarks in
///   Pair(state, bookmarks.stored)    // the in-memory client's contents shape what comes next
/// }) { ... }
/// ```
public struct ExplorationKey<State, Context> {
  let make: (@MainActor (State, Context) -> AnyHashable)?

  /// No pruning: every path is explored, however many reach the same configuration. For
  /// checking the explorer's counts against an enumeration of your own, or when no key is
  /// safe.
  ///
  /// ```swift
  /// let explorer = Explorer<S, A, Void>(depth: 4, key: .none) { ... } actions: { ... }
  /// ```
  public static var none: Self { Self(make: nil) }

  /// The state's text (`stateDump(_:)`): works for any state, and slower than
  /// ``state`` for a `Hashable` one. States whose text is equal but which differ (a field the
  /// dump does not show) are taken as the same: give such a state a key of your own.
  ///
  /// ```swift
  /// let explorer = Explorer<S, A, Void>(depth: 4, key: .stateText) { ... } actions: { ... }
  /// ```
  public static var stateText: Self { Self(make: { state, _ in AnyHashable(stateDump(state)) }) }

  /// A key of your own, from the state and the context: include whatever outside the state
  /// shapes what the feature does next (an in-memory client's contents), leave out what
  /// never matters (a timestamp shown but never read).
  ///
  /// ```swift
  /// let key = ExplorationKey<Feature.State, InMemoryBookmarks>.custom { state, bookmarks in
  ///   [AnyHashable(state), AnyHashable(bookmarks.stored)]
  /// }
  /// ```
  public static func custom<Key: Hashable>(
    _ key: @escaping @MainActor (_ state: State, _ context: Context) -> Key
  ) -> Self {
    Self(make: { AnyHashable(key($0, $1)) })
  }
}

extension ExplorationKey where State: Hashable {
  /// The state itself: the exact key for a `Hashable` state whose context holds nothing that
  /// shapes what comes next.
  ///
  /// ```swift
  /// let explorer = Explorer<S, A, Void>(depth: 8, key: .state) { ... } actions: { ... }
  /// ```
  public static var state: Self { Self(make: { state, _ in AnyHashable(state) }) }
}

/// One event of an exploration's path.
///
/// ```swift
/// if case let .receive(action, effect) = counterexample.events.last {
///   print("effect \(effect) delivered \(action)")
/// }
/// ```
public enum ExplorationEvent<Action> {
  /// The user sent this action.
  case send(Action)
  /// The feature reduced the oldest action this effect held. Effects are numbered from 1 in
  /// the order they started on the path; 0 is a reducer's `.send`, reduced in the same event
  /// as the action that returned it (it does not count towards the depth).
  case receive(Action, effect: Int)
  /// The test clock advanced by this much, to the earliest deadline a task slept until.
  case advance(by: Duration)
}

/// One event as a `transition` invariant sees it: the state before, the event, the state
/// after.
///
/// ```swift
/// transition: { step, _ in
///   step.after.page >= step.before.page ? nil : "page went back after \(step.event)"
/// }
/// ```
public struct ExplorationStep<State, Action> {
  /// The number of events before this one on the path.
  public let index: Int
  /// The state before the event.
  public let before: State
  /// The event.
  public let event: ExplorationEvent<Action>
  /// The state once effects were quiet again.
  public let after: State
}

/// What an ``Explorer`` run found: its counts, how far it got, and its counterexample, if any.
///
/// ```swift
/// let result = await explorer.run()
/// #expect(result.isComplete)
/// #expect(result.configurationsByDepth == [1, 2, 3, 4])
/// ```
public struct ExplorationResult<State, Action> {
  /// Distinct configurations stored (the initial one included); with ``ExplorationKey/none``,
  /// paths.
  public let configurations: Int
  /// Events applied and checked (a transition into an already known configuration included).
  public let transitions: Int
  /// Transitions that reached a configuration already known, not explored again.
  public let pruned: Int
  /// New configurations first reached at each depth: `[1, ...]`, index 0 the initial one.
  public let configurationsByDepth: [Int]
  /// Every path of up to this many events was explored (up to equivalence).
  public let depthCompleted: Int
  /// When the search stopped before its depth: the share (0...1) of the configurations at
  /// ``depthCompleted`` whose next events were explored; `nil` when it did not stop early.
  public let fractionOfNextDepth: Double?
  /// Whether every path up to the requested depth was explored, or no event was left to
  /// take (`false` when a budget stopped it, or when a counterexample ended it).
  public let isComplete: Bool
  /// How long the search took.
  public let duration: Duration
  /// The first failure found: a shortest one. `nil` when every path checked held.
  public let counterexample: ExplorationCounterexample<State, Action>?
  /// The statistics, or the failure with its path and its `TestStore` test.
  public let report: String

  /// Whether no path checked failed.
  public var passed: Bool { counterexample == nil }
}

/// A shortest path that breaks an invariant (or reports an unexpected runtime warning).
///
/// ```swift
/// let failure = try #require(result.counterexample)
/// #expect(failure.depth == 3)
/// print(failure.steps)          // one event per line
/// print(failure.testStoreTest)  // a test to paste
/// ```
public struct ExplorationCounterexample<State, Action> {
  /// The path's events in order, a reducer's `.send`s (effect 0) included.
  public let events: [ExplorationEvent<Action>]
  /// The number of events on the path, a reducer's `.send`s not counted.
  public let depth: Int
  /// The state before the path and after each of ``events``.
  public let states: [State]
  /// What the invariant said, or the runtime warning's message.
  public let message: String
  /// Whether an unexpected runtime warning failed the path, rather than an invariant.
  public let isWarning: Bool
  /// The path, one event per line, numbered.
  public let steps: String
  /// The path as the body of a `TestStore` test, to paste after the store is made as in
  /// `setUp`.
  public let testStoreTest: String
}

extension ExplorationEvent: Sendable where Action: Sendable {}
extension ExplorationEvent: Equatable where Action: Equatable {}
