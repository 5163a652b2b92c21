/// A store's throttle windows: what `.throttle(id:for:clock:latest:)` (Throttle.swift) does at
/// run time, one window per navigation position and id. The table is the store's effect state
/// (`_EffectState`, in EffectInterpreter.swift); its upkeep is the state's own methods, and
/// what delivers an action or starts a wait is the store core's.
extension _EffectState {
  struct ThrottleKey: Hashable {
    let path: [_AnyID]
    let id: _AnyID
  }

  /// One throttle id's window: when it last delivered, the action kept for the end of the
  /// window, and which wait is current (a cancelled wait that reports late is ignored).
  struct ThrottleState {
    var throttle: _Throttle
    var last: (any Sendable)?
    var pending: (action: Action, origin: _Origin)?
    var isWaiting = false
    var generation = 0
  }

  /// Drops the actions kept by the throttles `.cancel(id:)` reaches (all of them under `path`
  /// when `id` is nil); their windows stay, as TCA keeps the time of the last delivery.
  mutating func dropThrottledActions(under path: [_AnyID], id: _AnyID?) {
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

  mutating func forgetThrottles(where isGone: (ThrottleKey) -> Bool) {
    guard hasThrottles else { return }
    for key in throttles.keys where isGone(key) { throttles[key] = nil }
  }

  /// Forgets the windows that have closed with nothing kept (the next action through them
  /// would be delivered at once, as with no entry), once the table has doubled since the last
  /// sweep: memory follows the windows that are open, at an amortized constant cost.
  mutating func sweepThrottlesIfNeeded() {
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

extension _StoreCore {
  typealias ThrottleKey = _EffectState<Action>.ThrottleKey
  typealias ThrottleState = _EffectState<Action>.ThrottleState

  /// Delivers an action a throttled effect sent: at once when its id's window is closed,
  /// else kept (the latest, or the first) and delivered when the window closes.
  func throttleAction(
    _ action: Action, origin: _Origin, throttle: _Throttle, context: _EffectContext
  ) {
    let key = ThrottleKey(path: context.path, id: throttle.id)
    // A kept action arrives later, outside this batch: it joins its sender's cascade now.
    let origin = _Origin.cascade(cascade(for: origin))
    if effects.throttles[key] == nil { effects.sweepThrottlesIfNeeded() }
    var entry = effects.throttles[key, default: ThrottleState(throttle: throttle)]
    entry.throttle = throttle
    if entry.isWaiting {
      if throttle.latest || entry.pending == nil { entry.pending = (action, origin) }
      effects.throttles[key] = entry
      return
    }
    switch throttle.decide(entry.last) {
    case let .emit(now):
      entry.last = now
      effects.throttles[key] = entry
      deliver(action, origin: origin)
    case let .wait(sleep):
      entry.pending = (action, origin)
      entry.isWaiting = true
      entry.generation &+= 1
      effects.throttles[key] = entry
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

  func endThrottleWait(_ key: ThrottleKey, generation: Int, now: (any Sendable)?) {
    guard var entry = effects.throttles[key], entry.generation == generation, entry.isWaiting else {
      return
    }
    let pending = entry.pending
    entry.pending = nil
    entry.isWaiting = false
    if let now, pending != nil { entry.last = now }
    effects.throttles[key] = entry
    guard now != nil, let pending else { return }
    deliver(pending.action, origin: pending.origin)
  }

  /// Reduces an action now: in the running batch, or in a batch of its own.
  func deliver(_ action: Action, origin: _Origin) {
    if isSending {
      enqueue(action, origin: origin)
    } else {
      _ = send(action, origin: origin)
    }
  }
}
