/// Runs `operation` with dependencies changed by `update`; the change is visible to everything
/// `operation` does, and to the tasks and stores it creates, and to nothing else.
///
/// ```swift
/// let store = withDependencies {
///   $0.date = .constant(Date(timeIntervalSince1970: 0))
/// } operation: {
///   Store(initialState: Feature.State()) { Feature() }
/// }
/// ```
@discardableResult
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues._current
  try DependencyValues._set(&values, update)
  return try DependencyValues._withValue(values, operation: operation)
}

/// Runs the asynchronous `operation` with dependencies changed by `update`.
///
/// ```swift
/// let fact = await withDependencies {
///   $0.numberFact.fetch = { "\($0) is a test number." }
/// } operation: {
///   await model.loadFact()
/// }
/// ```
@discardableResult
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues._current
  try DependencyValues._set(&values, update)
  return try await DependencyValues._withValue(values, operation: operation)
}

/// Carries the current dependencies into work that escapes the current task, such as a
/// callback or a dispatch queue, which task-local values do not reach.
///
/// ```swift
/// withEscapedDependencies { dependencies in
///   player.onFinish = {
///     dependencies.yield { analytics.track("finished") }
///   }
/// }
/// ```
public func withEscapedDependencies<R>(
  _ operation: (EscapedDependencies) throws -> R
) rethrows -> R {
  try operation(EscapedDependencies(values: DependencyValues._current))
}

/// Dependencies captured by ``withEscapedDependencies(_:)``.
public struct EscapedDependencies: Sendable {
  let values: DependencyValues

  /// Runs `operation` with the captured dependencies.
  public func yield<R>(_ operation: () throws -> R) rethrows -> R {
    try DependencyValues._withValue(values, operation: operation)
  }

  /// Runs the asynchronous `operation` with the captured dependencies.
  public func yield<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    try await DependencyValues._withValue(values, operation: operation)
  }
}
