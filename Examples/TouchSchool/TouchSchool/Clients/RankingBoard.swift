import Cascade
import Foundation

/// The local ranking database: every school's touches, kept in a JSON file, with a live
/// snapshot stream like a database's snapshot listener. The app's player and the simulated
/// players (``RivalPlayers``) all write to it; every observer hears every change.
///
/// ```swift
/// let board = RankingBoard(file: folder.appendingPathComponent("ranking.json"))
/// board.add(7, to: "7130027")   // saved, and every `snapshots()` observer hears it
/// ```
///
/// Writes are serialized: changing the ranking, saving it (atomically: a crash leaves the old
/// file or the new one) and telling observers happen as one step, so concurrent writers lose
/// nothing and every observer sees the snapshots in order. A write always completes once it
/// has started, even if the task that made it is cancelled.
public final class RankingBoard: Sendable {
  private struct State {
    var ranking: Ranking
    var observers: [UUID: AsyncStream<Ranking>.Continuation] = [:]
  }

  /// Where the ranking is kept; `nil` keeps it in memory.
  public let file: URL?
  private let state: Guarded<State>

  /// A board holding what `file` holds (an empty ranking when there is no file yet). A file that
  /// exists but cannot be read is reported and moved aside (`ranking.json.unreadable`), never
  /// overwritten.
  public init(file: URL?) {
    self.file = file
    self.state = Guarded(State(ranking: file.map(Self.read) ?? Ranking()))
  }

  /// The ranking now.
  public var ranking: Ranking { state.withLock { $0.ranking } }

  /// The number of open snapshot streams.
  public var observerCount: Int { state.withLock { $0.observers.count } }

  /// Adds `count` touches to `school`, saves, and sends the new ranking to every observer.
  public func add(_ count: Int, to school: School.ID) {
    state.withLock { state in
      state.ranking.touches[school, default: 0] += count
      save(state.ranking)
      for observer in state.observers.values { observer.yield(state.ranking) }
    }
  }

  /// The ranking now, then after every change, until the observer stops (`onEnd` runs then).
  public func snapshots(onEnd: @escaping @Sendable () -> Void = {}) -> AsyncStream<Ranking> {
    let (stream, continuation) = AsyncStream<Ranking>.makeStream(
      bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    continuation.onTermination = { [state] _ in
      _ = state.withLock { $0.observers.removeValue(forKey: id) }
      onEnd()
    }
    state.withLock { state in
      state.observers[id] = continuation
      continuation.yield(state.ranking)
    }
    return stream
  }

  private func save(_ ranking: Ranking) {
    guard let file else { return }
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(ranking).write(to: file, options: .atomic)
    } catch {
      reportIssue(
        "TouchSchool could not save the ranking to \(file.path): \(error). It is kept for this "
          + "run only; check that the folder is writable.")
    }
  }

  private static func read(_ file: URL) -> Ranking {
    guard FileManager.default.fileExists(atPath: file.path) else { return Ranking() }
    if let data = try? Data(contentsOf: file),
      let ranking = try? JSONDecoder().decode(Ranking.self, from: data)
    {
      return ranking
    }
    let kept = file.appendingPathExtension("unreadable")
    try? FileManager.default.removeItem(at: kept)
    let moved = (try? FileManager.default.moveItem(at: file, to: kept)) != nil
    reportIssue(
      "The TouchSchool ranking at \(file.path) is unreadable; starting from an empty ranking. "
        + (moved
          ? "The file was kept as \(kept.lastPathComponent)."
          : "The file could not be moved aside; it will be replaced on the next touch."))
    return Ranking()
  }
}
