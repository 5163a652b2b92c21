import Cascade
import CascadeExampleSupport
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
/// Writes are serialized: changing the ranking and saving it (atomically: a crash leaves the
/// old file or the new one) happen as one step, so concurrent writers lose nothing; the file
/// is written when `add` returns. Observers are told after the lock is released (see
/// `SnapshotBroadcast`), in order, so an observer that stops while a write is being told never
/// waits for it.
public final class RankingBoard: Sendable {
  /// Where the ranking is kept; `nil` keeps it in memory.
  public let file: URL?
  /// Why the ranking is not being saved, when a file that could not be read could not be moved
  /// aside either: it is left as it is, and never overwritten.
  public let saveBlocked: String?
  private let broadcast: SnapshotBroadcast<Ranking>
  /// The last save's failure, so that it is reported once, not at every rival's touch.
  /// `nonisolated(unsafe)`: read and written only while `failureLock` is held (an `NSLock`,
  /// which ThreadSanitizer sees, where it does not see `Mutex`'s futex on Linux).
  nonisolated(unsafe) private var lastFailure: String?
  private let failureLock = NSLock()

  /// A board holding what `file` holds (an empty ranking when there is no file yet). A file that
  /// exists but cannot be read is reported and moved aside (`ranking.unreadable-1.json`, then
  /// `-2`...), never overwritten; when it cannot be moved, the board keeps the ranking for this
  /// run only and leaves the file alone.
  ///
  /// - Parameter moveAside: How an unreadable file is moved aside (tests make it fail).
  public init(
    file: URL?,
    moveAside: (URL) -> Result<URL, FileRescue.Failure> = FileRescue.moveAside
  ) {
    self.file = file
    let (ranking, blocked) = file.map { Self.read($0, moveAside: moveAside) } ?? (Ranking(), nil)
    self.saveBlocked = blocked
    self.broadcast = SnapshotBroadcast(ranking, newestOnly: true)
  }

  /// The ranking now.
  public var ranking: Ranking { broadcast.value }

  /// The number of open snapshot streams.
  public var observerCount: Int { broadcast.observerCount }

  /// Adds `count` touches to `school`, saves, and sends the new ranking to every observer.
  public func add(_ count: Int, to school: School.ID) {
    let failure = broadcast.update { ranking -> String? in
      ranking.touches[school, default: 0] += count
      return save(ranking)
    }
    // Rivals save every moment: the same failure is said once, until a save succeeds.
    failureLock.lock()
    let repeated = lastFailure == failure
    lastFailure = failure
    failureLock.unlock()
    if let failure, !repeated { reportIssue(failure) }
  }

  /// The ranking now, then after every change, until the observer stops (`onEnd` runs then).
  public func snapshots(onEnd: @escaping @Sendable () -> Void = {}) -> AsyncStream<Ranking> {
    broadcast.stream(onEnd: onEnd)
  }

  /// Writes `ranking`; what went wrong, if anything.
  private func save(_ ranking: Ranking) -> String? {
    guard let file, saveBlocked == nil, !DataDirectory.isLeaving else { return nil }
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(ranking).write(to: file, options: .atomic)
      SaveFailures.note(file, what: "the ranking", failure: nil)
      return nil
    } catch {
      let reason = fileError(error, writing: file)
      SaveFailures.note(file, what: "the ranking", failure: reason)
      return "TouchSchool could not save the ranking to \(file.path): \(reason). "
        + "It is kept for this run only."
    }
  }

  private static func read(
    _ file: URL, moveAside: (URL) -> Result<URL, FileRescue.Failure>
  ) -> (Ranking, blocked: String?) {
    guard FileManager.default.fileExists(atPath: file.path) else { return (Ranking(), nil) }
    if let data = try? Data(contentsOf: file),
      let ranking = try? JSONDecoder().decode(Ranking.self, from: data)
    {
      return (ranking, nil)
    }
    switch moveAside(file) {
    case .success(let kept):
      reportIssue(
        "The TouchSchool ranking at \(file.path) is unreadable; starting from an empty ranking. "
          + "The file was kept as \(kept.lastPathComponent).")
      return (Ranking(), nil)
    case .failure(let failure):
      let blocked =
        "The TouchSchool ranking at \(file.path) is unreadable and could not be moved aside "
        + "(\(failure)); it is left as it is, and this run's touches are not saved."
      reportIssue(blocked)
      return (Ranking(), blocked)
    }
  }
}
