extension DependencyValues {
  /// Randomness, as a dependency so that tests can make it predictable. Live: the system
  /// generator; tests must set one, e.g. `.init(SeededGenerator(seed: 42))`.
  ///
  /// ```swift
  /// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  /// let roll = withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
  /// ```
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGenerator.self] }
    set { self[WithRandomNumberGenerator.self] = newValue }
  }
}

/// Gives exclusive access to a random number generator.
public final class WithRandomNumberGenerator: Sendable {
  /// `@unchecked Sendable`: made only from a `Sendable` generator (see `init`), and only ever
  /// used inside the lock of `generator`.
  private struct Held: @unchecked Sendable {
    var generator: any RandomNumberGenerator
  }

  private let generator: Guarded<Held>

  /// Wraps `generator`.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    self.generator = Guarded(Held(generator: generator))
  }

  /// Runs `body` with the generator.
  public func callAsFunction<R>(_ body: (inout any RandomNumberGenerator) throws -> R) rethrows
    -> R
  {
    try generator.withLock { try body(&$0.generator) }
  }
}

extension WithRandomNumberGenerator: DependencyKey {
  /// The system's random number generator.
  public static let liveValue = WithRandomNumberGenerator(SystemRandomNumberGenerator())
  /// Reports that the test set no generator, then uses one seeded with 0: a test that needs
  /// randomness sets one, e.g. `.init(SeededGenerator(seed: 42))`.
  public static var testValue: WithRandomNumberGenerator {
    reportUnimplemented(
      "DependencyValues.withRandomNumberGenerator (set it to a seeded generator)")
    return WithRandomNumberGenerator(SeededGenerator(seed: 0))
  }
}

/// A small, fast, deterministic generator (SplitMix64) for tests and replays.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { self.state = seed }

  /// The next number of the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
