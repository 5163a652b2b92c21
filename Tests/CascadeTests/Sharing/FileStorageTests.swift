import CascadeTesting
import Foundation
import Testing

@testable import Cascade

private struct Member: Codable, Equatable, Sendable {
  var id: Int
  var name: String
  static let first = Member(id: 1, name: "Ana")
  static let second = Member(id: 2, name: "Bo")
  static let third = Member(id: 3, name: "Cy")
}

/// A value kept in a file by ``FileStorageKey``: when it is written, what two files or two
/// storages hold, and how a file deleted, moved or rewritten outside is loaded again. (The
/// behaviours of swift-sharing's `FileStorageTests` that apply, in Cascade's terms.)
@MainActor
@Suite(.hangGuard)
struct FileStorageTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  private func members(in storage: SharedStorage, at url: URL) throws -> [Member]? {
    try storage.readFile(at: url).map { try JSONDecoder().decode([Member].self, from: $0) }
  }

  private func members(at url: URL) throws -> [Member] {
    try JSONDecoder().decode([Member].self, from: Data(contentsOf: url))
  }

  @Test func nothingIsWrittenUntilTheFirstChangeWhichIsSaved() throws {
    let storage = SharedStorage.inMemory()
    let url = URL(filePath: "/virtual/members.json")
    try withDependencies {
      $0.sharedStorage = storage
    } operation: { () throws in
      @Shared(.fileStorage(url)) var members = [Member]()
      #expect($members.loadError == nil)
      #expect(try storage.readFile(at: url) == nil)
      $members.withLock { $0.append(.first) }
      #expect(try self.members(in: storage, at: url) == [.first])
    }
  }

  @Test func withNoSaveIntervalEveryChangeReachesTheDisk() throws {
    let folder = TemporaryFolder(creating: true)
    let url = folder.file("members.json")
    let storage = SharedStorage.disk(watchInterval: nil)
    try withDependencies {
      $0.sharedStorage = storage
    } operation: { () throws in
      @Shared(.fileStorage(url, saveInterval: .zero)) var members = [Member]()
      $members.withLock { $0.append(.first) }
      storage.flush()
      #expect(try self.members(at: url) == [.first])
      $members.withLock { $0.append(.second) }
      storage.flush()
      #expect(try self.members(at: url) == [.first, .second])
    }
  }

  @Test func twoFilesAreTwoValues() throws {
    let storage = SharedStorage.inMemory()
    let one = URL(filePath: "/virtual/one.json")
    let other = URL(filePath: "/virtual/other.json")
    try withDependencies {
      $0.sharedStorage = storage
    } operation: { () throws in
      @Shared(.fileStorage(one)) var first = [Member]()
      @Shared(.fileStorage(other)) var second = [Member]()
      $first.withLock { $0.append(.first) }
      #expect(try members(in: storage, at: one) == [.first])
      #expect(try members(in: storage, at: other) == nil)
      $second.withLock { $0.append(.second) }
      #expect(try members(in: storage, at: one) == [.first])
      #expect(try members(in: storage, at: other) == [.second])
      #expect(second == [.second])
    }
  }

  @Test func loadingAFileLeavesItAsItWas() throws {
    let folder = TemporaryFolder(creating: true)
    let url = folder.file("members.json")
    let original = try JSONEncoder().encode([Member.first])
    try original.write(to: url)
    let storage = SharedStorage.disk(watchInterval: nil)
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var members = [Member]()
      #expect(members == [.first])
    }
    storage.flush()
    #expect(try Data(contentsOf: url) == original)
  }

  @Test func aSuccessfulSaveOverAnUnreadableFileClearsTheLoadError() throws {
    let storage = SharedStorage.inMemory()
    let url = URL(filePath: "/virtual/members.json")
    try storage.writeFile(Data("corrupt".utf8), to: url)
    try withDependencies {
      $0.sharedStorage = storage
    } operation: { () throws in
      @Shared(.fileStorage(url)) var members = [Member]()
      let error = try #require($members.loadError as? SharedLoadError)
      #expect(error.underlying is DecodingError)
      $members.withLock { $0.append(.first) }
      #expect(try self.members(in: storage, at: url) == [.first])
      #expect($members.loadError == nil)
    }
  }

  @Test func oneFileInTwoStoragesIsTwoValues() {
    let url = URL(filePath: "/virtual/member.json")
    let first = withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      Shared(wrappedValue: Member.first, .fileStorage(url))
    }
    let second = withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      Shared(wrappedValue: Member.first, .fileStorage(url))
    }
    first.withLock { $0.name = "Ana Jr" }
    #expect(first.wrappedValue.name == "Ana Jr")
    #expect(second.wrappedValue.name == "Ana")
    second.withLock { $0.name = "Ana Sr" }
    #expect(first.wrappedValue.name == "Ana Jr")
    #expect(second.wrappedValue.name == "Ana Sr")
  }

  @Test func aValuesOwnSaveIsNeverReadBackIntoIt() throws {
    /// Keeps only the first two numbers in the file.
    struct FirstTwoKey: SharedKey, Hashable {
      typealias Value = [Int]
      let url: URL
      func load(from storage: SharedStorage) throws -> [Int]? {
        try storage.readFile(at: url).map { try JSONDecoder().decode([Int].self, from: $0) }
      }
      func save(_ value: [Int], to storage: SharedStorage) throws {
        try storage.writeFile(JSONEncoder().encode(Array(value.prefix(2))), to: url)
      }
      func storedVersion(in storage: SharedStorage) -> AnyHashable? {
        storage.fileVersion(at: url)
      }
    }
    let storage = SharedStorage.inMemory()
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(FirstTwoKey(url: URL(filePath: "/virtual/numbers.json"))) var numbers = [Int]()
      $numbers.withLock { $0.append(contentsOf: [1, 2, 3]) }
      storage.checkForExternalChanges()
      #expect(numbers == [1, 2, 3])
    }
  }

  /// A members file holding `[.first]` in a new folder, and disk storage that looks for
  /// changes made outside only when asked: where the tests of outside changes start.
  private func withMembersFile(
    _ body: (_ url: URL, _ folder: borrowing TemporaryFolder, _ storage: SharedStorage) throws
      -> Void
  ) throws {
    let folder = TemporaryFolder(creating: true)
    let url = folder.file("members.json")
    try JSONEncoder().encode([Member.first]).write(to: url)
    let storage = SharedStorage.disk(watchInterval: nil)
    try withDependencies {
      $0.sharedStorage = storage
    } operation: { () throws in
      try body(url, folder, storage)
    }
  }

  @Test func aFileDeletedOutsideGivesBackTheDefault() throws {
    try withMembersFile { url, _, storage in
      @Shared(.fileStorage(url)) var members = [Member]()
      #expect(members == [.first])
      try FileManager.default.removeItem(at: url)
      storage.checkForExternalChanges()
      #expect(members == [])
      #expect($members.loadError == nil)
    }
  }

  @Test func aFileMovedAwayAndBackIsLoadedAgain() throws {
    try withMembersFile { url, folder, storage in
      let aside = folder.file("aside.json")
      @Shared(.fileStorage(url)) var members = [Member]()
      try FileManager.default.moveItem(at: url, to: aside)
      storage.checkForExternalChanges()
      #expect(members == [])
      try FileManager.default.moveItem(at: aside, to: url)
      storage.checkForExternalChanges()
      #expect(members == [.first])
    }
  }

  @Test func aFileDeletedThenWrittenOutsideIsLoaded() throws {
    try withMembersFile { url, _, storage in
      @Shared(.fileStorage(url)) var members = [Member]()
      try FileManager.default.removeItem(at: url)
      storage.checkForExternalChanges()
      #expect(members == [])
      try JSONEncoder().encode([Member.second]).write(to: url)
      storage.checkForExternalChanges()
      #expect(members == [.second])
    }
  }

  @Test func manyChangesInARowAreEachSeenAtOnceAndTheLastIsSaved() throws {
    let folder = TemporaryFolder(creating: true)
    let url = folder.file("counts.json")
    let storage = SharedStorage.disk(watchInterval: nil)
    try withDependencies {
      $0.sharedStorage = storage
    } operation: { () throws in
      @Shared(.fileStorage(url)) var counts = [Int: Int]()
      for round in 1...200 {
        for slot in 1...5 { $counts.withLock { $0[slot, default: 0] += 1 } }
        #expect(counts == Dictionary(uniqueKeysWithValues: (1...5).map { ($0, round) }))
      }
      storage.flush()
      let saved = try JSONDecoder().decode([Int: Int].self, from: Data(contentsOf: url))
      #expect(saved == Dictionary(uniqueKeysWithValues: (1...5).map { ($0, 200) }))
    }
  }
}
