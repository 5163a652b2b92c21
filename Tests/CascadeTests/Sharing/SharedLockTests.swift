import CascadeTesting
import Foundation
import Testing

@testable import Cascade

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private struct Settings: Codable, Equatable, Sendable {
  var volume = 0.5
  var name = "player"
}

private struct Oops: Error {}

private struct Row: Identifiable, Equatable, Sendable {
  let id: Int
  var count = 0
}

private func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

/// One save a ``RecordingKey`` made: the value, and the thread it ran on.
private struct Save: Sendable {
  let value: Int
  let thread: UInt
}

private let recordedSaves = Guarded<[String: [Save]]>([:])

/// A key of the user's own, with every default of `SharedKey` (no save interval): it records
/// what it saved and on which thread.
private struct RecordingKey: SharedKey, Hashable {
  typealias Value = Int
  let name: String
  func load(from storage: SharedStorage) throws -> Int? { nil }
  func save(_ value: Int, to storage: SharedStorage) throws {
    let save = Save(value: value, thread: currentThread())
    recordedSaves.withLock { $0[name, default: []].append(save) }
  }
}

@Suite(.hangGuard)
struct SharedLockTests {
  @Test func readingTheSameValueInsideWithLockSeesTheValueBefore() {
    let settings = Shared(value: Settings())
    let volume = settings.volume
    var seen: [String] = []
    settings.withLock { value in
      value.volume = 0.9
      // Direct, through the projection, and through a projection made inside: no deadlock,
      // and the value as it was committed before this closure.
      seen.append("\(settings.wrappedValue.volume)")
      seen.append("\(volume.wrappedValue)")
      seen.append(settings.name.wrappedValue)
    }
    #expect(seen == ["0.5", "0.5", "player"])
    #expect(settings.wrappedValue.volume == 0.9)
    #expect(volume.wrappedValue == 0.9)
  }

  /// TCA's SyncUps deletes a sync-up this way: the id is read through the element's own
  /// reference inside the array's `withLock`. A `withLock` changing the array in place would
  /// have no array to give that read (see the Performance article, S8).
  @Test func anElementsReferenceCanBeReadInsideTheCollectionsWithLock() {
    let rows = Shared(value: IdentifiedArray(uniqueElements: (0..<3).map { Row(id: $0) }))
    let row = Shared(rows[id: 1])!
    rows.withLock { _ = $0.remove(id: row.wrappedValue.id) }
    #expect(rows.wrappedValue.ids == [0, 2])
    #expect(row.wrappedValue.id == 1)  // the element as it last was
  }

  @Test func aFieldProjectionCanReadItsParentInsideItsWithLock() {
    let settings = Shared(value: Settings())
    settings.volume.withLock { $0 = settings.wrappedValue.volume + 0.25 }
    #expect(settings.wrappedValue.volume == 0.75)
  }

  @Test func otherSharedValuesCanBeWrittenInsideWithLock() {
    let a = Shared(value: 1)
    let b = Shared(value: 10)
    a.withLock { value in
      b.withLock { $0 += value }
      value += b.wrappedValue
    }
    #expect(a.wrappedValue == 12)
    #expect(b.wrappedValue == 11)
  }

  @Test func aThrowingBodyChangesNothing() {
    let settings = Shared(value: Settings())
    #expect(throws: Oops.self) {
      try settings.withLock { value in
        value.name = "half-done"
        throw Oops()
      }
    }
    #expect(settings.wrappedValue == Settings())
  }

  @Test func withLockNestedInItselfStopsWithAClearMessage() async {
    await #expect(processExitsWith: .failure) {
      let count = Shared(value: 0)
      count.withLock { _ in count.withLock { $0 += 1 } }
    }
  }

  @Test func aPendingLocalEditWinsOverAnOutsideChange() throws {
    let folder = TemporaryFolder(creating: true)
    let url = folder.file("settings.json")
    let storage = SharedStorage.disk(watchInterval: nil)
    try withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.fileStorage(url, saveInterval: .seconds(3600))) var settings = Settings()
      $settings.withLock { $0.name = "mine" }  // waiting for its save
      try JSONEncoder().encode(Settings(volume: 0, name: "theirs")).write(to: url)
      storage.checkForExternalChanges()
      #expect(settings.name == "mine")
      storage.flush()
      let saved = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
      #expect(saved.name == "mine")
      // With nothing waiting, an outside change is loaded as before.
      try JSONEncoder().encode(Settings(volume: 0, name: "theirs")).write(to: url)
      storage.checkForExternalChanges()
      #expect(settings.name == "theirs")
    }
  }

  @Test func aCustomKeyNeverSavesOnTheCallersThread() {
    let storage = SharedStorage.disk(watchInterval: nil)
    let name = "custom-\(UUID().uuidString)"
    let count = withDependencies {
      $0.sharedStorage = storage
    } operation: {
      Shared(wrappedValue: 0, RecordingKey(name: name))
    }
    let caller = currentThread()
    func savesOnCaller() -> Int {
      recordedSaves.withLock { $0[name, default: []] }.filter { $0.thread == caller }.count
    }
    count.withLock { $0 = 1 }
    #expect(savesOnCaller() == 0)
    count.withLock { $0 = 2 }
    #expect(savesOnCaller() == 0)
    // A flush is the barrier: when it returns, the last change is stored.
    storage.flush()
    #expect(recordedSaves.withLock { $0[name]?.last?.value } == 2)
  }
}
