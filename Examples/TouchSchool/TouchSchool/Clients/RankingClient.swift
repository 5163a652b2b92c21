import Cascade
import Foundation

/// The school ranking: a live stream of snapshots, like a database snapshot listener, and a
/// write that adds a batch of touches to a school.
///
/// ```swift
/// @Dependency(\.ranking) var ranking
/// // ...
/// return .run { send in
///   for await snapshot in ranking.snapshots() { await send(.rankingUpdated(snapshot)) }
/// }
/// ```
public struct RankingClient: Sendable {
  /// The ranking now, then after every change, until the observer stops.
  public var snapshots: @Sendable () -> AsyncStream<Ranking>
  /// Adds `count` touches to a school. Once started, a write completes even if the caller is
  /// cancelled.
  public var addTouches: @Sendable (_ school: School.ID, _ count: Int) async throws -> Void

  public init(
    snapshots: @escaping @Sendable () -> AsyncStream<Ranking>,
    addTouches: @escaping @Sendable (_ school: School.ID, _ count: Int) async throws -> Void
  ) {
    self.snapshots = snapshots
    self.addTouches = addTouches
  }
}

/// Why a write to the ranking was refused.
public enum RankingWriteError: Error, Equatable, Sendable, CustomStringConvertible {
  case invalidCount(Int)

  public var description: String {
    switch self {
    case .invalidCount(let count): "a batch must add at least one touch, not \(count)"
    }
  }
}

extension RankingClient {
  /// The ranking kept by `board`, which `rivals` (if any) play on while someone watches it.
  ///
  /// ```swift
  /// let board = RankingBoard(file: folder.appendingPathComponent("ranking.json"))
  /// let client = RankingClient.live(board: board, rivals: RivalPlayers(
  ///   schools: RivalPlayers.shippedSchools, every: .milliseconds(500)))
  /// ```
  public static func live(board: RankingBoard, rivals: RivalPlayers? = nil) -> Self {
    RankingClient(
      snapshots: {
        rivals?.watcherJoined(board)
        return board.snapshots(onEnd: { rivals?.watcherLeft() })
      },
      addTouches: { school, count in
        guard count > 0 else { throw RankingWriteError.invalidCount(count) }
        board.add(count, to: school)
      })
  }

  /// Where the app keeps the ranking by default: `TouchSchool/ranking.json` in the user's
  /// application support folder (`~/.local/share` on Linux).
  public static var defaultFile: URL? {
    FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
      .appendingPathComponent("TouchSchool/ranking.json")
  }
}

extension RankingClient: DependencyKey {
  /// The ranking in ``defaultFile``, with the shipped schools' rivals playing every 700 ms.
  public static let liveValue = RankingClient.live(
    board: RankingBoard(file: defaultFile),
    rivals: RivalPlayers(schools: RivalPlayers.shippedSchools, every: .milliseconds(700)))
  public static let testValue = RankingClient(
    snapshots: {
      reportUnimplemented("RankingClient.snapshots")
      return AsyncStream { $0.finish() }
    },
    addTouches: { _, _ in
      reportUnimplemented("RankingClient.addTouches")
      throw UnimplementedError("RankingClient.addTouches")
    })
}

extension DependencyValues {
  /// The school ranking; see ``RankingClient``.
  public var ranking: RankingClient {
    get { self[RankingClient.self] }
    set { self[RankingClient.self] = newValue }
  }
}
