import Cascade
import CascadeExampleSupport
import CascadeExampleTouchSchool
import CascadeTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10)))
struct RankingClientTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "touch-school-ranking-\(UUID().uuidString)", isDirectory: true)
  var file: URL { folder.appendingPathComponent("ranking.json") }

  init() {
    reportRuntimeWarningsAsTestFailures()  // these tests use no TestStore, which would do it
  }

  @Test func theRankingIsKeptInItsFileAcrossLaunches() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = RankingClient.live(board: RankingBoard(file: file))
    try await first.addTouches(seoulHigh.id, 7)
    try await first.addTouches(gangnamHigh.id, 2)
    try await first.addTouches(seoulHigh.id, 1)
    let relaunched = RankingBoard(file: file)
    #expect(relaunched.ranking == Ranking(touches: [seoulHigh.id: 8, gangnamHigh.id: 2]))
    var snapshots = RankingClient.live(board: relaunched).snapshots().makeAsyncIterator()
    #expect(await snapshots.next() == relaunched.ranking)
  }

  @Test func observersGetTheCurrentRankingThenEveryWrite() async throws {
    let board = RankingBoard(file: nil)
    let client = RankingClient.live(board: board)
    var snapshots = client.snapshots().makeAsyncIterator()
    #expect(await snapshots.next() == Ranking())
    try await client.addTouches(seoulHigh.id, 3)
    #expect(await snapshots.next() == Ranking(touches: [seoulHigh.id: 3]))
    await #expect(throws: RankingWriteError.invalidCount(0)) {
      try await client.addTouches(seoulHigh.id, 0)
    }
    #expect(board.ranking == Ranking(touches: [seoulHigh.id: 3]))
  }

  @Test func anUnreadableRankingIsKeptAsideAndReported() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("{\"touches\": [".utf8).write(to: file)
    var board: RankingBoard?
    withKnownIssue {
      board = RankingBoard(file: file)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("is unreadable") }
    }
    #expect(board?.ranking == Ranking())
    let kept = folder.appendingPathComponent("ranking.unreadable-1.json")
    #expect(try String(contentsOf: kept, encoding: .utf8) == "{\"touches\": [")
  }

  @Test func aSecondUnreadableRankingKeepsTheFirstOnesRescuedCopy() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for text in ["first", "second"] {
      try Data(text.utf8).write(to: file)
      withKnownIssue {
        _ = RankingBoard(file: file)
      } matching: {
        $0.comments.contains { $0.rawValue.contains("is unreadable") }
      }
    }
    let first = folder.appendingPathComponent("ranking.unreadable-1.json")
    let second = folder.appendingPathComponent("ranking.unreadable-2.json")
    #expect(try String(contentsOf: first, encoding: .utf8) == "first")
    #expect(try String(contentsOf: second, encoding: .utf8) == "second")
  }

  @Test func anUnreadableRankingThatCannotBeMovedIsNeverOverwritten() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: file)
    var board: RankingBoard?
    withKnownIssue {
      board = RankingBoard(
        file: file,
        moveAside: { _ in .failure(FileRescue.Failure(reason: "Read-only file system")) })
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("could not be moved aside (Read-only file system)")
          && $0.rawValue.contains("not saved")
      }
    }
    board?.add(3, to: seoulHigh.id)
    #expect(board?.ranking == Ranking(touches: [seoulHigh.id: 3]))  // kept for this run
    #expect(try String(contentsOf: file, encoding: .utf8) == "not json")
  }

  /// The `quit` deadlock: a write told its observers under the board's lock while a cancelled
  /// observer's termination waited for that lock. Writers on many threads, observers joining
  /// and cancelled all the while: every write is kept and nothing waits forever.
  @Test func writersOnManyThreadsWhileObserversComeAndGo() async throws {
    let board = RankingBoard(file: file)
    defer { try? FileManager.default.removeItem(at: folder) }
    let writing = Task.detached {
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        for _ in 0..<300 { board.add(1, to: seoulHigh.id) }
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask {
          let observer = Task {
            var last = -1
            for await snapshot in board.snapshots() {
              let touches = snapshot.touches(for: seoulHigh.id)
              #expect(touches > last)
              last = touches
            }
          }
          await Task.yield()
          observer.cancel()
          await observer.value
        }
      }
    }
    await writing.value
    #expect(board.ranking.touches(for: seoulHigh.id) == 1_200)
    #expect(RankingBoard(file: file).ranking.touches(for: seoulHigh.id) == 1_200)
    await pollUntil { board.observerCount == 0 }
    #expect(board.observerCount == 0)
  }

  /// The rule behind the `quit` deadlock: nothing is called out while the board's lock is held.
  /// A failed save is reported once the lock is released, so whatever the report runs may read
  /// the board. (Before the fix the report ran inside the lock, and reading the board from it
  /// waited for the lock forever: this test hung.)
  @Test func aFailedSaveIsReportedAfterTheLockIsReleased() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("a file where the folder should be".utf8).write(to: folder)
    let board = RankingBoard(file: file)
    let seenInReport = LockIsolated<[Int]>([])
    await runOnItsOwnThread {
      withIssueHandler({ _ in
        seenInReport.withValue { $0.append(board.ranking.touches(for: seoulHigh.id)) }
      }) {
        board.add(1, to: seoulHigh.id)
      }
    }
    #expect(seenInReport.value == [1])
  }

  @Test func rivalsPlayOnTheClockOnlyWhileSomeoneWatches() async throws {
    let clock = TestClock()
    let board = RankingBoard(file: nil)
    let rivals = RivalPlayers(
      schools: [gangnamHigh.id, daechiMiddle.id], every: .seconds(1), clock: clock)
    let client = RankingClient.live(board: board, rivals: rivals)
    #expect(!rivals.isPlaying)
    let watcher = Task {
      var seen: [Ranking] = []
      for await snapshot in client.snapshots() {
        seen.append(snapshot)
        if seen.count == 4 { break }
      }
      return seen
    }
    while clock.sleeperCount == 0 { await Task.yield() }
    #expect(rivals.isPlaying)
    for _ in 0..<3 { await clock.advance(by: .seconds(1)) }
    let seen = await watcher.value
    #expect(seen.first == Ranking())
    let touches = seen.map { $0.touches.values.reduce(0, +) }
    #expect(touches == touches.sorted() && touches.last! > touches.first!)
    #expect(board.ranking.touches.keys.allSatisfy([gangnamHigh.id, daechiMiddle.id].contains))
    // The watcher left: the rivals stop, and time passing adds nothing.
    while rivals.isPlaying { await Task.yield() }
    let after = board.ranking
    await clock.advance(by: .seconds(10))
    #expect(board.ranking == after)
  }
}

/// Runs `body` on a thread of its own (not the cooperative pool, which a body that never
/// returns would starve) and waits for it: a body that deadlocks hangs the calling test until its
/// time limit fails it.
func runOnItsOwnThread(_ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    Thread {
      body()
      done.resume()
    }.start()
  }
}
