import Cascade

/// Waits until `condition` holds for the store's state, at most `timeout`; `false` when it
/// timed out. For headless programs waiting on work an effect finishes later (a stream's
/// next value), where a plain `values(of:)` loop would wait forever if it never came.
///
/// The patience is counted in turns of at most a tenth of a second, and a turn ends only once both the
/// shared task pool and the main actor have run what was queued before it. On a machine so busy
/// that neither ran the store's work (a sanitizer, other programs), the wait lasts longer instead
/// of giving up while the store never had its chance; on an idle one it lasts `timeout`.
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
  let turns = max(1, Int((timeout / turn).rounded(.up)))
  let slice = timeout / turns
  let timer = Task.detached {
    for _ in 0..<turns {
      do { try await Task.sleep(for: slice) } catch { return }  // the condition held
      await MainActor.run {}
    }
    waiter.cancel()
  }
  defer { timer.cancel() }
  return await waiter.value
}

/// One turn of ``waitUntil(_:timeout:_:)``'s patience.
private let turn: Duration = .milliseconds(100)
