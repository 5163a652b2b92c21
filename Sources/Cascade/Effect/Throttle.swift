extension Effect {
  /// This effect, with the actions it sends limited to one per `interval` for `id`, as TCA's
  /// throttle: the first action goes through at once; during the interval that follows, one
  /// more is kept (the latest, or the first when `latest` is false) and delivered when the
  /// interval ends. The interval then starts again from that delivery.
  ///
  /// ```swift
  /// case .scrolled:
  ///   return .send(.loadVisibleRows)
  ///     .throttle(id: CancelID.scroll, for: .milliseconds(100), clock: clock, latest: true)
  /// ```
  ///
  /// The effect's work starts at once; only what it sends waits. As in TCA, a new throttled
  /// effect with the same id cancels the one still running, and the id is a cancellation id:
  /// `.cancel(id:)` stops the effect and drops a kept action.
  public func throttle<ID: Hashable & Sendable, C: Clock<Duration>>(
    id: ID,
    for interval: Duration,
    clock: C,
    latest: Bool
  ) -> Self {
    if _isNone { return self }
    let throttle = _Throttle(
      id: _AnyID(id),
      latest: latest,
      decide: { last in
        // Read when the action arrives, so the window is measured from the delivery, not
        // from whenever a task gets to run.
        let now = clock.now
        guard let last = last as? C.Instant else { return .emit(now) }
        let deadline = last.advanced(by: interval)
        guard now < deadline else { return .emit(now) }
        return .wait { try await clock.sleep(until: deadline, tolerance: nil) }
      },
      now: { clock.now })
    return Self(.throttle(throttle, self))
  }
}

/// How a throttle decides: the clock is captured generically, the store keeps the last
/// delivery instant per id as an opaque value. A class, so that carrying it in every effect's
/// context costs one reference.
@usableFromInline
final class _Throttle: Sendable {
  enum Decision {
    case emit(any Sendable)
    case wait(@Sendable () async throws -> Void)
  }
  let id: _AnyID
  /// The id the throttled effects run under, so that the next one replaces them without
  /// cancelling the wait for a kept action.
  let workID: _AnyID
  let latest: Bool
  let decide: @Sendable ((any Sendable)?) -> Decision
  let now: @Sendable () -> any Sendable

  init(
    id: _AnyID, latest: Bool, decide: @escaping @Sendable ((any Sendable)?) -> Decision,
    now: @escaping @Sendable () -> any Sendable
  ) {
    self.id = id
    self.workID = _AnyID(_ThrottledWork(id: id))
    self.latest = latest
    self.decide = decide
    self.now = now
  }
}

/// The cancellation id of the effects a throttle with `id` runs.
private struct _ThrottledWork: Hashable, Sendable {
  let id: _AnyID
}

extension Effect {
  /// ``throttle(id:for:clock:latest:)-(_,_,C,_)`` for the clock dependency's type,
  /// `any Clock<Duration>`: opening the existential is not always inferred (it fails in a file
  /// that imports Foundation), so this overload opens it.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// // ...
  /// return .send(.beat).throttle(id: CancelID.beat, for: .seconds(1), clock: clock, latest: true)
  /// ```
  public func throttle<ID: Hashable & Sendable>(
    id: ID,
    for interval: Duration,
    clock: any Clock<Duration>,
    latest: Bool
  ) -> Self {
    func open<C: Clock<Duration>>(_ clock: C) -> Self {
      throttle(id: id, for: interval, clock: clock, latest: latest)
    }
    return open(clock)
  }
}
