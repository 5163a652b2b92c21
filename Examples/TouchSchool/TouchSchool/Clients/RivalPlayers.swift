import Cascade
import CascadeExampleSupport
import Foundation

/// Students of other schools, simulated: while anyone watches the ranking, one of them adds a
/// few touches for their school every `interval`, so the ranking moves while you play.
///
/// They take their turns on the clock they are given (a `TestClock` in tests) and in an order
/// fixed by `seed`, so a run can be replayed.
///
/// ```swift
/// let rivals = RivalPlayers(schools: ["7010055", "7091027"], every: .milliseconds(500))
/// let ranking = RankingClient.live(board: board, rivals: rivals)
/// ```
public final class RivalPlayers: Sendable {
  public let schools: [School.ID]
  public let interval: Duration
  public let seed: UInt64
  private let clock: any Clock<Duration>
  private let playing = Locked<(watchers: Int, task: Task<Void, Never>?)>((0, nil))

  public init(
    schools: [School.ID], every interval: Duration, clock: any Clock<Duration> = ContinuousClock(),
    seed: UInt64 = 2024
  ) {
    self.schools = schools
    self.interval = interval
    self.clock = clock
    self.seed = seed
  }

  /// Schools of the shipped lists whose students play along in the app.
  public static let shippedSchools: [School.ID] = [
    "7010055", "7091027", "7130085", "7010255", "7091226", "7130273",
  ]

  /// Whether the rivals are playing now.
  public var isPlaying: Bool { playing.withLock { $0.task != nil } }

  /// Someone started watching `board`: the rivals play until the last watcher leaves.
  func watcherJoined(_ board: RankingBoard) {
    playing.withLock { playing in
      playing.watchers += 1
      guard playing.task == nil, !schools.isEmpty else { return }
      playing.task = Task { [schools, interval, clock, seed] in
        var generator = SplitMix64(seed: seed)
        while true {
          do { try await clock.sleep(for: interval) } catch { return }
          let school = schools[Int(generator.next() % UInt64(schools.count))]
          board.add(Int(generator.next() % 5) + 1, to: school)
        }
      }
    }
  }

  /// A watcher left; the rivals stop when none is left.
  func watcherLeft() {
    let stopped = playing.withLock { playing -> Task<Void, Never>? in
      playing.watchers -= 1
      guard playing.watchers == 0 else { return nil }
      defer { playing.task = nil }
      return playing.task
    }
    stopped?.cancel()
  }
}

/// A small, fast, seeded random number generator (SplitMix64), for a replayable simulation.
private struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
