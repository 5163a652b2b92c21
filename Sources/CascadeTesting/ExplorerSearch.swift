import Cascade

/// The breadth-first search of one ``Explorer/run(reportsFailure:fileID:filePath:line:column:)``.
///
/// Every stored configuration is a node of a tree: its parent, the event that reached it from
/// there, and, for one with nothing in flight explored by state, its state. A node's index is
/// its configuration's name, which effects started from it are named by.
@MainActor
final class ExplorerSearch<State: Equatable, Action, Context> {
  typealias Live = ExplorerLive<State, Action, Context>

  struct Node {
    let parent: Int
    let event: ExplorationEvent<Action>?
    let depth: Int
    /// Set for a configuration with nothing in flight, when the explorer restores by state.
    let snapshot: ExplorerSnapshot<State>?
  }

  /// A path that failed: the event that failed it, from `parent`.
  struct Failure {
    let parent: Int
    let event: ExplorationEvent<Action>
    let message: String
    let isWarning: Bool
  }

  let explorer: Explorer<State, Action, Context>
  var nodes: [Node] = []
  var visited: [ConfigurationKey: Int] = [:]
  var births: [BirthKey: Int] = [:]
  var transitions = 0
  var pruned = 0
  var byDepth: [Int] = []
  var restoresByState = false
  /// The subject the nodes with a snapshot are expanded on, while it has nothing in flight.
  var reusable: Live?
  let warnings = Guarded<[String]>([])
  /// Where each effect's start is told: the live subject being driven.
  let relay = BirthRelay()

  init(explorer: Explorer<State, Action, Context>) { self.explorer = explorer }

  struct BirthKey: Hashable {
    let parent: BirthParent
    let event: EventKey
    let ordinal: Int
  }

  /// The name of an effect started by `event` from `parent`, the `ordinal`-th the event
  /// started: the same name for the same start on every path.
  func birth(parent: BirthParent, event: EventKey, ordinal: Int) -> Int {
    let key = BirthKey(parent: parent, event: event, ordinal: ordinal)
    if let name = births[key] { return name }
    births[key] = births.count
    return births.count - 1
  }

  func run() async -> ExplorationResult<State, Action> {
    let collect = RuntimeWarningHandler { [warnings] warning in
      warnings.withLock { $0.append(warning.message) }
    }
    let relay = self.relay
    let observer = _TestEffectObserver {
      relay.tell($0)
    } ended: {
      await relay.ended($0)
    }
    return await RuntimeWarnings.$handler.withValue(collect) {
      await _TestEffectLifetime.$observer.withValue(observer) { await search() }
    }
  }

  private func search() async -> ExplorationResult<State, Action> {
    let clock = ContinuousClock()
    let started = clock.now
    let root = await makeLive()
    restoresByState =
      explorer.stateHoldsEverything && _sharedRoots(in: root.store.state).isEmpty
    _ = takeWarnings()
    nodes.append(
      Node(
        parent: -1, event: nil, depth: 0,
        snapshot: restoresByState && root.isQuiescent ? root.snapshot : nil))
    byDepth = [1]
    if let make = explorer.key.make {
      visited[
        ConfigurationKey(
          user: make(root.store.state, root.subject.context), effects: root.effectsKey())] = 0
    }
    if let message = explorer.invariant(root.store.state, root.subject.context) {
      await root.tearDown()
      let failure = ExplorationCounterexample<State, Action>(
        events: [], depth: 0, states: [root.store.state], message: message, isWarning: false,
        steps: "(the initial state)", testStoreTest: "// The initial state fails: \(message)")
      return finish(
        started: started, depthCompleted: 0, fraction: nil, complete: false,
        counterexample: failure, note: nil)
    }
    if restoresByState && root.isQuiescent { reusable = root } else { await root.tearDown() }

    var frontier = [0]
    var depthCompleted = 0
    for depth in 0..<explorer.depth {
      var next: [Int] = []
      for (done, index) in frontier.enumerated() {
        if let reason = budgetSpent(since: started, clock: clock) {
          await reusable?.tearDown()
          return finish(
            started: started, depthCompleted: depthCompleted,
            fraction: Double(done) / Double(frontier.count), complete: false,
            counterexample: nil, note: reason)
        }
        if let failure = await expand(index, into: &next) {
          await reusable?.tearDown()
          let counterexample = await counterexample(for: failure)
          return finish(
            started: started, depthCompleted: depth, fraction: nil, complete: false,
            counterexample: counterexample, note: nil)
        }
      }
      depthCompleted = depth + 1
      frontier = next
      if frontier.isEmpty { break }
    }
    await reusable?.tearDown()
    // With no configuration left to expand, every longer path goes through one already
    // explored (or there is no event left): the paths to the requested depth are all covered.
    var note: String?
    if frontier.isEmpty && depthCompleted < explorer.depth {
      note = "no new configuration after depth \(depthCompleted - 1)"
      depthCompleted = explorer.depth
    }
    while byDepth.count <= depthCompleted { byDepth.append(0) }
    return finish(
      started: started, depthCompleted: depthCompleted, fraction: nil, complete: true,
      counterexample: nil, note: note)
  }

  private func budgetSpent(since started: ContinuousClock.Instant, clock: ContinuousClock)
    -> String?
  {
    if let most = explorer.maxConfigurations, nodes.count >= most {
      return "the budget of \(most) configurations was reached"
    }
    if let limit = explorer.timeLimit, clock.now - started >= limit {
      return "the time limit of \(limit) was reached"
    }
    return nil
  }

  private func makeLive() async -> Live {
    let subject = await explorer.setUp()
    let live = Live(subject: subject, userKey: explorer.key.make) { [unowned self] in
      birth(parent: $0, event: $1, ordinal: $2)
    }
    relay.live = live
    // What the last subject's cancelled effects reported as they wound down is not this one's.
    _ = takeWarnings()
    return live
  }

  private func takeWarnings() -> [String] {
    warnings.withLock { warnings in
      defer { warnings.removeAll() }
      return warnings
    }
  }

  /// The path from the initial configuration to `index`: each event with the node it left.
  func path(to index: Int) -> [(parent: Int, event: ExplorationEvent<Action>)] {
    var path: [(Int, ExplorationEvent<Action>)] = []
    var current = index
    while let event = nodes[current].event {
      let parent = nodes[current].parent
      path.append((parent, event))
      current = parent
    }
    return path.reversed()
  }

  /// A fresh subject with the path to `index` replayed on it.
  private func replay(_ path: [(parent: Int, event: ExplorationEvent<Action>)]) async -> Live {
    let live = await makeLive()
    for (parent, event) in path { await live.apply(event, from: parent) }
    _ = takeWarnings()
    return live
  }

  /// Applies each event enabled in configuration `index` to a copy of it, checks the
  /// invariants, and stores each new configuration in `next`.
  private func expand(_ index: Int, into next: inout [Int]) async -> Failure? {
    let node = nodes[index]
    if let snapshot = node.snapshot {
      var live: Live
      if let reusable { live = reusable } else { live = await makeLive() }
      reusable = nil
      live.restore(snapshot)
      let events = live.enabledEvents(explorer.actions(snapshot.state, live.subject.context))
      for event in events {
        live.restore(snapshot)
        if let failure = await step(live, from: index, event, before: snapshot.state, &next) {
          await live.tearDown()
          return failure
        }
        if !live.isQuiescent {
          await live.tearDown()
          live = await makeLive()
        }
      }
      reusable = live
      return nil
    }
    let path = self.path(to: index)
    var live = await replay(path)
    let before = live.store.state
    let events = live.enabledEvents(explorer.actions(before, live.subject.context))
    for (position, event) in events.enumerated() {
      if position > 0 { live = await replay(path) }
      let failure = await step(live, from: index, event, before: before, &next)
      await live.tearDown()
      if let failure { return failure }
    }
    return nil
  }

  /// Applies one event and checks it; stores the configuration it reaches when it is new.
  private func step(
    _ live: Live, from index: Int, _ event: ExplorationEvent<Action>, before: State,
    _ next: inout [Int]
  ) async -> Failure? {
    await live.apply(event, from: index)
    transitions += 1
    let after = live.store.state
    let context = live.subject.context
    let reported = takeWarnings()
    let unexpected = reported.first { !explorer.allowsWarning($0) }
    let depth = nodes[index].depth + 1
    if let message = explorer.invariant(after, context)
      ?? explorer.transition?(
        ExplorationStep(index: depth - 1, before: before, event: event, after: after), context)
    {
      return Failure(parent: index, event: event, message: message, isWarning: false)
    }
    if let unexpected {
      return Failure(
        parent: index, event: event, message: "unexpected runtime warning: \(unexpected)",
        isWarning: true)
    }
    let quiescent = restoresByState && live.isQuiescent
    if let make = explorer.key.make {
      let key = ConfigurationKey(user: make(after, context), effects: live.effectsKey())
      if visited[key] != nil {
        pruned += 1
        return nil
      }
      visited[key] = nodes.count
    }
    next.append(nodes.count)
    nodes.append(
      Node(
        parent: index, event: event, depth: depth,
        snapshot: quiescent ? live.snapshot : nil))
    if byDepth.count <= depth { byDepth.append(0) }
    byDepth[depth] += 1
    return nil
  }

  /// Replays the failing path on a fresh subject, keeping each state and each reducer
  /// `.send`, and builds the counterexample.
  private func counterexample(for failure: Failure) async -> ExplorationCounterexample<
    State, Action
  > {
    let path = self.path(to: failure.parent) + [(failure.parent, failure.event)]
    let live = await makeLive()
    var states = [live.store.state]
    var events: [ExplorationEvent<Action>] = []
    var replayed: String?
    for (position, (parent, event)) in path.enumerated() {
      let before = live.store.state
      let sent = await live.apply(event, from: parent)
      events.append(event)
      states.append(live.store.state)
      for action in sent {
        events.append(.receive(action, effect: 0))
        states.append(live.store.state)
      }
      if position == path.count - 1 {
        let reported = takeWarnings()
        let after = live.store.state
        let context = live.subject.context
        replayed =
          explorer.invariant(after, context)
          ?? explorer.transition?(
            ExplorationStep(index: position, before: before, event: event, after: after),
            context)
          ?? reported.first { !explorer.allowsWarning($0) }.map {
            "unexpected runtime warning: \($0)"
          }
      }
    }
    _ = takeWarnings()
    await live.tearDown()
    return ExplorerReport.counterexample(
      events: events, depth: path.count, states: states, message: failure.message,
      isWarning: failure.isWarning, replayed: replayed)
  }

  private func finish(
    started: ContinuousClock.Instant, depthCompleted: Int, fraction: Double?, complete: Bool,
    counterexample: ExplorationCounterexample<State, Action>?, note: String?
  ) -> ExplorationResult<State, Action> {
    let duration = ContinuousClock.now - started
    let statistics = ExplorerReport.Statistics(
      configurations: nodes.count, transitions: transitions, pruned: pruned,
      byDepth: byDepth, depthCompleted: depthCompleted, requestedDepth: explorer.depth,
      fraction: fraction, duration: duration, pruning: explorer.key.make != nil, note: note)
    return ExplorationResult(
      configurations: nodes.count, transitions: transitions, pruned: pruned,
      configurationsByDepth: byDepth, depthCompleted: depthCompleted,
      fractionOfNextDepth: fraction, isComplete: complete, duration: duration,
      counterexample: counterexample,
      report: ExplorerReport.report(statistics, counterexample: counterexample))
  }
}

/// Hands each effect's start and end to the subject being driven.
@MainActor
final class BirthRelay: Sendable {
  weak var live: (any ExplorerEffectWatcher)?
  nonisolated init() {}
  func tell(_ lifetime: _TestEffectLifetime) { live?.born(lifetime) }
  func ended(_ lifetime: _TestEffectLifetime) async {
    // An effect of a subject torn down since is cancelled: it does not wait.
    await live?.ended(lifetime)
  }
}

/// What the relay tells a subject: each effect's start and end.
@MainActor
protocol ExplorerEffectWatcher: AnyObject {
  func born(_ lifetime: _TestEffectLifetime)
  func ended(_ lifetime: _TestEffectLifetime) async
}
