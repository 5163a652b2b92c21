extension Result where Failure == any Error {
  /// Runs an `async` throwing closure and keeps what it returns or throws: the `async` form of
  /// `Result(catching:)`, for effects that send a response either way.
  ///
  /// ```swift
  /// return .run { [query = state.query] send in
  ///   await send(.searchResponse(Result { try await weatherClient.search(query) }))
  /// }
  /// ```
  ///
  /// It runs where it is called from, on the caller's actor: from a `@MainActor` test or
  /// helper, `body` may use main-actor values and capture values that are not `Sendable`, and
  /// nothing crosses an isolation boundary.
  ///
  /// ```swift
  /// @MainActor func loadFact() async {
  ///   fact = await Result { try await numberFact.fetch(count) }
  /// }
  /// ```
  ///
  /// A cancellation while `body` runs is caught like any other error (a `CancellationError`),
  /// so an effect that must not send after being cancelled checks `Task.isCancelled`.
  public init(
    isolation: isolated (any Actor)? = #isolation,
    catching body: () async throws -> Success
  ) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
