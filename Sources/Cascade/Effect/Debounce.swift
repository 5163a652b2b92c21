extension Effect {
  /// This effect, started only once `duration` has passed without another effect with the same
  /// `id`: each new one cancels the one waiting.
  ///
  /// ```swift
  /// case let .searchTextChanged(text):
  ///   state.text = text
  ///   return .run { send in await send(.results(try await api.search(text))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// Drive it with the clock dependency so tests can advance time by hand.
  public func debounce<ID: Hashable & Sendable, C: Clock<Duration>>(
    id: ID,
    for duration: Duration,
    clock: C,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    if _isNone { return self }
    // The deadline is fixed now, while the reducer runs, so it does not depend on when the
    // effect's task gets to start.
    let deadline = clock.now.advanced(by: duration)
    let wait = Self.run(
      operation: { _ in try await clock.sleep(until: deadline, tolerance: nil) },
      fileID: fileID, line: line)
    return Self.concatenate([wait, self]).cancellable(id: id, cancelInFlight: true)
  }
}

extension Effect {
  /// ``debounce(id:for:clock:fileID:line:)-(_,_,C,_,_)`` for the clock dependency's type,
  /// `any Clock<Duration>`: opening the existential is not always inferred (it fails in a file
  /// that imports Foundation), so this overload opens it.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// // ...
  /// return .send(.save(text)).debounce(id: CancelID.save, for: .seconds(1), clock: clock)
  /// ```
  public func debounce<ID: Hashable & Sendable>(
    id: ID,
    for duration: Duration,
    clock: any Clock<Duration>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    func open<C: Clock<Duration>>(_ clock: C) -> Self {
      debounce(id: id, for: duration, clock: clock, fileID: fileID, line: line)
    }
    return open(clock)
  }
}
