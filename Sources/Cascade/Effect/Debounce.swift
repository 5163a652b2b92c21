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
    if case .none = operation { return self }
    // The deadline is fixed now, while the reducer runs, so it does not depend on when the
    // effect's task gets to start.
    let deadline = clock.now.advanced(by: duration)
    let wait = Self.run(
      operation: { _ in try await clock.sleep(until: deadline, tolerance: nil) },
      fileID: fileID, line: line)
    return Self.concatenate([wait, self]).cancellable(id: id, cancelInFlight: true)
  }
}
