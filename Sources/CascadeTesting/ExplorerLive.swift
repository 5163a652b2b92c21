import Cascade

/// One subject under exploration, driven event by event: the store's effects each keep the
/// actions they sent in the test store's queue, tagged with their lifetime, and this knows
/// which lifetime is which effect, when it started, and how many actions it has delivered.
@MainActor
final class ExplorerLive<State: Equatable, Action, Context>: ExplorerEffectWatcher {
  let subject: ExplorationSubject<State, Action, Context>
  var store: TestStore<State, Action> { subject.store }
  var clock: TestClock? { subject.clock }

  /// The effects in the order they started: effect `n` is `lifetimes[n - 1]`.
  private(set) var lifetimes: [_TestEffectLifetime] = []
  /// What names each effect across paths (see ``ExplorerSearch/birth(parent:event:ordinal:)``).
  private(set) var births: [Int] = []
  /// The clock's time when each effect started.
  private var startedAt: [Duration] = []
  /// The actions each effect has had delivered.
  private var delivered: [Int] = []

  /// The configuration (node) the event being applied started from, and the event: what new
  /// effects are named by.
  private var parent = 0
  /// The state the event being applied started from.
  private var parentState: State?
  private var event: ExplorationEvent<Action>?
  private var ordinal = 0
  private let nameBirth:
    @MainActor (_ parent: BirthParent, _ event: EventKey, _ ordinal: Int) -> Int
  /// The user's key, when configurations are pruned.
  private let userKey: (@MainActor (State, Context) -> AnyHashable)?

  init(
    subject: ExplorationSubject<State, Action, Context>,
    userKey: (@MainActor (State, Context) -> AnyHashable)?,
    nameBirth: @escaping @MainActor (BirthParent, EventKey, Int) -> Int
  ) {
    self.subject = subject
    self.userKey = userKey
    self.nameBirth = nameBirth
  }

  /// An effect's work started.
  func born(_ lifetime: _TestEffectLifetime) {
    lifetimes.append(lifetime)
    let key = event.map(eventKey) ?? .advance(.zero)
    // An effect is what the reducer returned for an action in a state: named by the state's
    // key (the configuration itself when nothing is pruned) and the action.
    let origin: BirthParent =
      if let userKey, let parentState {
        .state(userKey(parentState, subject.context))
      } else {
        .configuration(parent)
      }
    births.append(nameBirth(origin, key, ordinal))
    ordinal += 1
    startedAt.append(clock?.now.offset ?? .zero)
    delivered.append(0)
  }

  /// An effect's work returned: while it holds actions, it has not sent them as far as the
  /// feature can tell, so its task stays (a `.cancel` ends it and discards them) until the
  /// last one is delivered.
  func ended(_ lifetime: _TestEffectLifetime) async {
    guard store.receivedEffects.contains(where: { $0 === lifetime }) else { return }
    await lifetime.park()
  }

  private func eventKey(_ event: ExplorationEvent<Action>) -> EventKey {
    switch event {
    case let .send(action): .action(stateDump(action))
    case let .receive(action, _): .action(stateDump(action))
    case let .advance(by: duration): .advance(duration)
    }
  }

  /// Whether nothing is in flight: no effect running, no action held, no sleeper, and the
  /// feature still presented.
  var isQuiescent: Bool {
    store.runningEffectCount == 0 && store.receivedEffects.isEmpty
      && (clock?.sleeperCount ?? 0) == 0 && !store.isDismissed
  }

  /// The events enabled now, in a fixed order: the user's actions, then each effect's oldest
  /// held action by effect, then the clock's next deadline.
  func enabledEvents(_ actions: [Action]) -> [ExplorationEvent<Action>] {
    var events: [ExplorationEvent<Action>] = []
    if !store.isDismissed {
      events.reserveCapacity(actions.count)
      for action in actions { events.append(.send(action)) }
    }
    if !store.receivedEffects.isEmpty {
      for (index, lifetime) in lifetimes.enumerated() {
        if let position = store.receivedEffects.firstIndex(where: { $0 === lifetime }) {
          events.append(.receive(store.received[position].action, effect: index + 1))
        }
      }
    }
    if let clock, let next = clock.pendingDeadlines.first {
      events.append(.advance(by: next.offset - clock.now.offset))
    }
    return events
  }

  /// Applies `event`, taken from the configuration `parent`, and lets the effects run until
  /// they are quiet; returns the actions a reducer's `.send` queued, reduced in the same event.
  @discardableResult
  func apply(_ event: ExplorationEvent<Action>, from parent: Int) async -> [Action] {
    self.parent = parent
    self.parentState = store.state
    self.event = event
    ordinal = 0
    switch event {
    case let .send(action):
      let running = store.runningEffectCount
      let task = store.store.send(action)
      store.discardActionsOfCancelledEffects()
      if task.cascade != nil || running > 0 || store.runningEffectCount > 0
        || !store.receivedEffects.isEmpty
      {
        await store.settle()
      }
    case let .receive(_, effect):
      if effect > 0,
        let position = store.receivedEffects.firstIndex(where: {
          $0 === lifetimes[effect - 1]
        })
      {
        delivered[effect - 1] += 1
        await deliver(at: position)
      }
    case let .advance(by: duration):
      await clock?.advance(by: duration)
    }
    var sent: [Action] = []
    while let position = store.receivedEffects.firstIndex(where: { $0 == nil }) {
      // Effects these start are named by the event being applied, counting on.
      sent.append(store.received[position].action)
      await deliver(at: position)
    }
    self.event = nil
    self.parentState = nil
    return sent
  }

  private func deliver(at position: Int) async {
    let (action, cascade, _) = store.received.remove(at: position)
    let effect = store.receivedEffects.remove(at: position)
    store.ledger.keepReceived(
      at: Array(0..<position) + Array((position + 1)..<(store.received.count + 1)))
    if let effect, !store.receivedEffects.contains(where: { $0 === effect }) {
      effect.release()
    }
    store.core.reduceReceived(action, cascade: cascade)
    store.discardActionsOfCancelledEffects()
    if store.runningEffectCount > 0 || !store.receivedEffects.isEmpty {
      await store.settle()
    }
  }

  /// Sets the store back to a stored configuration with nothing in flight.
  func restore(_ snapshot: ExplorerSnapshot<State>) {
    store.core.state = snapshot.state
    store.stackElementIDs.reset(to: snapshot.stackElementID)
  }

  var snapshot: ExplorerSnapshot<State> {
    ExplorerSnapshot(state: store.state, stackElementID: store.stackElementIDs.peek())
  }

  /// The part of the configuration's key beside the user's: effects in flight, sleepers,
  /// the next stack element id, the dismissal.
  func effectsKey() -> EffectsKey {
    var effects: [EffectKey] = []
    let now = clock?.now.offset ?? .zero
    for (index, lifetime) in lifetimes.enumerated() {
      let held = store.receivedEffects.indices.filter { store.receivedEffects[$0] === lifetime }
      let ended = lifetime.isFinished || lifetime.isCancelled
      if ended && held.isEmpty { continue }
      effects.append(
        EffectKey(
          birth: births[index], delivered: delivered[index],
          held: held.map { stateDump(store.received[$0].action) },
          elapsed: now - startedAt[index], ended: ended))
    }
    // A multiset: twins (two effects started alike) compare the same in either order.
    effects.sort { lhs, rhs in
      if lhs.birth != rhs.birth { return lhs.birth < rhs.birth }
      if lhs.delivered != rhs.delivered { return lhs.delivered < rhs.delivered }
      if lhs.elapsed != rhs.elapsed { return lhs.elapsed < rhs.elapsed }
      if lhs.ended != rhs.ended { return !lhs.ended }
      return lhs.held.lexicographicallyPrecedes(rhs.held)
    }
    let deadlines = clock?.pendingDeadlines.map { $0.offset - now } ?? []
    return EffectsKey(
      effects: effects, deadlines: deadlines, stackElementID: store.stackElementIDs.peek(),
      isDismissed: store.isDismissed)
  }

  /// Ends every effect and forgets every held action, so the store's release reports nothing;
  /// then lets the cancelled effects wind down.
  func tearDown() async {
    store.received.removeAll()
    store.receivedEffects.removeAll()
    store.ledger.clear()
    let running = store.runningEffectCount
    store.core.runner.cancelAll()
    if running > 0 { await store.settle() }
  }
}

/// A configuration with nothing in flight: all the explorer keeps to restore it.
struct ExplorerSnapshot<State> {
  let state: State
  let stackElementID: Int
}

/// An event as part of what names an effect: the action reduced (sent or delivered, by its
/// text), or an advance (which starts none).
enum EventKey: Hashable {
  case action(String)
  case advance(Duration)
}

/// Where an effect started: in a state (by the user's key), or, when nothing is pruned, in a
/// configuration (by its node).
enum BirthParent: Hashable {
  case state(AnyHashable)
  case configuration(Int)
}

/// The effects part of a configuration's key.
struct EffectsKey: Hashable {
  let effects: [EffectKey]
  let deadlines: [Duration]
  let stackElementID: Int
  let isDismissed: Bool
}

/// An effect in flight, as a configuration's key sees it.
struct EffectKey: Hashable {
  let birth: Int
  let delivered: Int
  let held: [String]
  let elapsed: Duration
  let ended: Bool
}

/// A configuration's whole key.
struct ConfigurationKey: Hashable {
  let user: AnyHashable
  let effects: EffectsKey
}
