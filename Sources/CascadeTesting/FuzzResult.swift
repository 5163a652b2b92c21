import Cascade

/// What a ``Fuzzer`` run did: the seeds it ran, the actions it sent, and its failure, if any.
///
/// ```swift
/// let result = await fuzzer.run(seeds: [1, 2, 3])
/// #expect(result.actionCount == 3 * fuzzer.steps)
/// if let failure = result.failure {
///   print(failure.seed, failure.shrunkActions)   // already reported as a test failure
/// }
/// ```
public struct FuzzResult<Action> {
  /// The seeds run, in order; the last one failed when ``failure`` is set.
  public let seeds: [UInt64]
  /// The actions the seeds' sessions sent (replays made while shrinking not included).
  public let actionCount: Int
  /// The first failure, shrunk; `nil` when every step of every seed held.
  public let failure: FuzzFailure<Action>?

  /// Whether every step of every seed held.
  public var passed: Bool { failure == nil }
}

/// A failing fuzzing session, shrunk: what went wrong, where, and the shortest list of actions
/// found that still fails.
public struct FuzzFailure<Action> {
  /// The seed of the failing session.
  public let seed: UInt64
  /// The failing step of that session, from 0.
  public let step: Int
  /// What the invariant (or an unexpected runtime warning) said at that step.
  public let message: String
  /// The session's actions, up to and including the failing one.
  public let actions: [Action]
  /// The shortest list found that fails the same way; its last action is the failing one.
  public let shrunkActions: [Action]
  /// What the invariant said when ``shrunkActions`` were replayed.
  public let shrunkMessage: String
  /// The replays shrinking made.
  public let replays: Int
  /// The text of the test failure that was reported.
  public let report: String
}

/// A step that broke the invariant, or reported a runtime warning nobody expected.
public struct FuzzViolation: Equatable, Sendable {
  /// The step, from 0.
  public let step: Int
  /// The invariant's description of what is wrong, or the warning's message.
  public let message: String
  /// Whether it is an unexpected runtime warning rather than the invariant.
  public let isWarning: Bool

  /// A violation at `step` (from 0) with `message`; `isWarning` when it is an unexpected runtime
  /// warning rather than the invariant. For comparing what ``Fuzzer/replay(_:)`` returns.
  ///
  /// ```swift
  /// let violation = await fuzzer.replay([.decrementTapped])
  /// #expect(violation == FuzzViolation(step: 0, message: "count -1 after decrementTapped"))
  /// ```
  public init(step: Int, message: String, isWarning: Bool = false) {
    self.step = step
    self.message = message
    self.isWarning = isWarning
  }
}

extension FuzzResult: Sendable where Action: Sendable {}
extension FuzzFailure: Sendable where Action: Sendable {}
