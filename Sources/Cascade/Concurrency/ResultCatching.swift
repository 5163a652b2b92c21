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
  /// A cancellation while `body` runs is caught like any other error (a `CancellationError`),
  /// so an effect that must not send after being cancelled checks `Task.isCancelled`.
  public init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
