import Cascade
import CascadeExampleCleanArea
import CascadeExampleSupport
import CascadeTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10)))
struct ClientTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "clean-area-tests-\(UUID().uuidString)", isDirectory: true)

  init() throws {
    reportRuntimeWarningsAsTestFailures()  // these tests use no TestStore, which would do it
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func write(_ text: String, to name: String) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  @Test func theShippedPoliciesLoadAndRelatedIDsExist() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let policies = try await PolicyClient.live().load()
    #expect(policies.count == 42)
    #expect(Set(policies.map(\.id)).count == 42)
    let ids = Set(policies.map(\.id))
    #expect(policies.allSatisfy { $0.relatedIDs.allSatisfy(ids.contains) && $0.start <= $0.end })
  }

  @Test func badPolicyFilesGiveClearTypedErrors() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing.json")
    let notAList = try write("{\"policies\": []}", to: "object.json")
    let badDate = try write(
      """
      [{"id": 7, "title": "T", "category": "C", "summary": "", "eligibility": "",
        "period": {"start": "2026-13-01", "end": "2026-12-31"}, "source": "", "relatedIds": []}]
      """, to: "date.json")
    let backwards = try write(
      """
      [{"id": 8, "title": "T", "category": "C", "summary": "", "eligibility": "",
        "period": {"start": "2026-12-31", "end": "2026-01-01"}, "source": "", "relatedIds": []}]
      """, to: "backwards.json")
    let empty = try write("[]", to: "empty.json")
    let twice = try write(
      """
      [{"id": 9, "title": "T", "category": "C", "summary": "", "eligibility": "",
        "period": {"start": "2026-01-01", "end": "2026-12-31"}, "source": "", "relatedIds": []},
       {"id": 9, "title": "U", "category": "C", "summary": "", "eligibility": "",
        "period": {"start": "2026-01-01", "end": "2026-12-31"}, "source": "", "relatedIds": []}]
      """, to: "twice.json")
    let cases: [(URL, PolicyLoadError)] = [
      (missing, .unavailable("cannot read missing.json")),
      (notAList, .malformed("object.json is not a list of policies")),
      (badDate, .malformed("policy 7 has an unreadable period")),
      (backwards, .malformed("policy 8 ends before it starts")),
      (empty, .malformed("empty.json lists no policies")),
      (twice, .malformed("policy 9 appears twice")),
    ]
    for (file, expected) in cases {
      do throws(PolicyLoadError) {
        _ = try await PolicyClient.live(file: file).load()
        Issue.record("\(file.lastPathComponent) loaded")
      } catch {
        #expect(error == expected)
      }
    }
  }

  @Test func bookmarksAreSavedAndALaterLaunchReadsThem() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("nested/bookmarks.json")
    let first = BookmarkClient.live(file: file)
    #expect(first.current().isEmpty)
    first.toggle(4)
    first.toggle(9)
    first.toggle(4)
    #expect(BookmarkClient.live(file: file).current() == [9])
  }

  @Test func anUnreadableBookmarksFileIsReportedAndKeptNotOverwritten() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try write("not json", to: "bookmarks.json")
    var client: BookmarkClient?
    withKnownIssue {
      client = BookmarkClient.live(file: file)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("kept as bookmarks.unreadable-1.json") }
    }
    #expect(client?.current().isEmpty == true)
    client?.toggle(5)
    let kept = folder.appendingPathComponent("bookmarks.unreadable-1.json")
    #expect(try String(contentsOf: kept, encoding: .utf8) == "not json")
    #expect(BookmarkClient.live(file: file).current() == [5])
  }

  @Test func aSecondUnreadableFileKeepsTheFirstOnesRescuedCopy() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    for text in ["first", "second"] {
      let file = try write(text, to: "bookmarks.json")
      withKnownIssue {
        _ = BookmarkClient.live(file: file)
      } matching: {
        $0.comments.contains {
          $0.rawValue.contains("is unreadable") || $0.rawValue.contains("are unreadable")
        }
      }
    }
    let first = folder.appendingPathComponent("bookmarks.unreadable-1.json")
    let second = folder.appendingPathComponent("bookmarks.unreadable-2.json")
    #expect(try String(contentsOf: first, encoding: .utf8) == "first")
    #expect(try String(contentsOf: second, encoding: .utf8) == "second")
  }

  @Test func anUnreadableFileThatCannotBeMovedIsNeverOverwritten() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try write("not json", to: "bookmarks.json")
    var client: BookmarkClient?
    withKnownIssue {
      client = BookmarkClient.live(
        file: file,
        moveAside: { _ in .failure(FileRescue.Failure(reason: "Read-only file system")) })
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("could not be moved aside (Read-only file system)")
          && $0.rawValue.contains("not saved")
      }
    }
    client?.toggle(5)
    #expect(client?.current() == [5])  // kept for this run
    #expect(try String(contentsOf: file, encoding: .utf8) == "not json")
  }

  /// A toggle told observers under the client's lock while a cancelled observer's termination
  /// waited for it. Toggles on many threads, observers joining and cancelled all the while:
  /// every toggle is kept, and nothing waits forever.
  @Test func togglesOnManyThreadsWhileObserversComeAndGo() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("bookmarks.json")
    let client = BookmarkClient.live(file: file)
    let writing = Task.detached {
      // Each thread toggles its own 50 policies an odd number of times: all end bookmarked.
      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for round in 0..<3 {
          for id in (thread * 50)..<(thread * 50 + 50) {
            _ = round
            client.toggle(id)
          }
        }
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask {
          let observer = Task { for await _ in client.updates() {} }
          await Task.yield()
          observer.cancel()
          await observer.value
        }
      }
    }
    await writing.value
    #expect(client.current() == Set(0..<200))
    #expect(BookmarkClient.live(file: file).current() == Set(0..<200))
  }

  /// Nothing is called out while the client's lock is held: a failed save is reported once the
  /// lock is released, so whatever the report runs may read the bookmarks. (Before the fix the
  /// report ran inside the lock, and reading the bookmarks from it waited forever: this test
  /// hung.)
  @Test func aFailedSaveIsReportedAfterTheLockIsReleased() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let blocker = try write("a file where the folder should be", to: "not-a-folder")
    let client = BookmarkClient.live(file: blocker.appendingPathComponent("bookmarks.json"))
    let seenInReport = LockIsolated<[Set<Int>]>([])
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      // A thread of its own: a deadlock must not starve the cooperative pool.
      Thread {
        withIssueHandler({ _ in
          seenInReport.withValue { $0.append(client.current()) }
        }) {
          client.toggle(7)
        }
        done.resume()
      }.start()
    }
    #expect(seenInReport.value == [[7]])
  }

  @Test func everyObserverHearsEveryChangeUntilItStops() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let client = BookmarkClient.live(file: nil)
    var first = client.updates().makeAsyncIterator()
    var second = client.updates().makeAsyncIterator()
    #expect(await first.next() == [])
    #expect(await second.next() == [])
    client.toggle(1)
    #expect(await first.next() == [1])
    #expect(await second.next() == [1])
    // An observer that stops is let go: the stream ends and later changes are not buffered.
    let stopped = Task {
      var iterator = client.updates().makeAsyncIterator()
      _ = await iterator.next()
      return await iterator.next()
    }
    stopped.cancel()
    #expect(await stopped.value == nil)
    client.toggle(2)
    #expect(await first.next() == [1, 2])
  }

  @Test func concurrentTogglesLoseNothing() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("bookmarks.json")
    let client = BookmarkClient.live(file: file)
    await withTaskGroup(of: Void.self) { group in
      for id in 0..<200 { group.addTask { client.toggle(id) } }
    }
    #expect(client.current() == Set(0..<200))
    #expect(BookmarkClient.live(file: file).current() == Set(0..<200))
  }

  @MainActor
  @Test func theScenarioPasses() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let failures = await CleanAreaScenario(dataDirectory: folder, print: { _ in }).run()
    #expect(failures == [])
    #expect(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("bookmarks.json").path))
  }
}
