import Cascade

/// How a scripted scenario prints its transcript, one line at a time: `{ print($0) }` in the
/// executables, a collecting closure in tests and in `cascade-examples`.
public typealias ScenarioPrinter = @MainActor @Sendable (String) -> Void

/// The expectations a scripted scenario checks as it runs: each one prints a line of the
/// transcript (`  ✓ what held` or `  ✗ what did not`), and the ones that failed are kept for
/// the scenario to return.
///
/// ```swift
/// let checks = ScenarioChecks(print: print)
/// store.send(.incrementButtonTapped)
/// checks.expect(store.count == 1, "one tap counts one")
/// await checks.waitUntil("the list loads", store) { !$0.rows.isEmpty }
/// return checks.failures
/// ```
@MainActor
public final class ScenarioChecks {
  /// Where the transcript goes.
  public let print: ScenarioPrinter
  /// The descriptions of the expectations that did not hold, in order.
  public private(set) var failures: [String] = []

  /// Checks that print to `print`.
  public init(print: @escaping ScenarioPrinter) { self.print = print }

  /// Prints whether `condition` held, and keeps `description` as a failure when it did not.
  public func expect(_ condition: Bool, _ description: String) {
    print(condition ? "  ✓ \(description)" : "  ✗ \(description)")
    if !condition { failures.append(description) }
  }

  /// Waits for `condition` on the store's state (at most ``waitUntil(_:timeout:_:)``'s five
  /// seconds); a timeout is a failed expectation named `description`.
  public func waitUntil<State, Action>(
    _ description: String, _ store: Store<State, Action>,
    _ condition: @escaping @MainActor @Sendable (State) -> Bool
  ) async {
    expect(await CascadeExampleSupport.waitUntil(store, condition), description)
  }
}
