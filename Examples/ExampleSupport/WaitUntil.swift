import Cascade

/// Waits until `condition` holds for the store's state, at most `timeout`; `false` when it
/// timed out. For headless programs waiting on work an effect finishes later (a stream's
/// next value), where a plain `values(of:)` loop would wait forever if it never came.
///
/// ```swift
/// let loaded = await waitUntil(store) { $0.path.count == 1 }
/// ```
@MainActor
public func waitUntil<State, Action>(
  _ store: Store<State, Action>, timeout: Duration = .seconds(5),
  _ condition: @escaping @MainActor @Sendable (State) -> Bool
) async -> Bool {
  let values = store.values(of: condition)
  let waiter = Task { @MainActor in
    for await value in values where value { return true }
    return false
  }
  let timer = Task {
    try? await Task.sleep(for: timeout)
    waiter.cancel()
  }
  defer { timer.cancel() }
  return await waiter.value
}
