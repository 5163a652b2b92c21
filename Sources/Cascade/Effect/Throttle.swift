extension Effect {
  /// This effect, at most once per `interval` for `id`: the first one starts at once; during the
  /// interval that follows, one more is kept (the latest, or the first when `latest` is false)
  /// and started when the interval ends.
  ///
  /// ```swift
  /// case .scrolled:
  ///   return .send(.loadVisibleRows)
  ///     .throttle(id: CancelID.scroll, for: .milliseconds(100), clock: clock, latest: true)
  /// ```
  ///
  /// The id is also a cancellation id: `.cancel(id:)` drops a kept effect.
  public func throttle<ID: Hashable & Sendable, C: Clock<Duration>>(
    id: ID,
    for interval: Duration,
    clock: C,
    latest: Bool
  ) -> Self {
    if case .none = operation { return self }
    let throttle = _Throttle(
      id: _AnyID(id),
      latest: latest,
      decide: { last in
        // Read when the reducer returns the effect, so the window is measured from the send,
        // not from whenever a task gets to run.
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

/// How a throttled effect decides: the clock is captured generically, the store keeps the
/// last emission instant per id as an opaque value.
@usableFromInline
struct _Throttle: Sendable {
  enum Decision {
    case emit(any Sendable)
    case wait(@Sendable () async throws -> Void)
  }
  let id: _AnyID
  let latest: Bool
  let decide: @Sendable ((any Sendable)?) -> Decision
  let now: @Sendable () -> any Sendable
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
