import CascadeExampleSupport
import Foundation
import Testing

@Suite struct DataDirectoryTests {
  let base = FileManager.default.temporaryDirectory.appendingPathComponent(
    "data-directory-tests-\(UUID().uuidString)", isDirectory: true)

  init() throws {
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
  }

  func cleanUp() { try? FileManager.default.removeItem(at: base) }

  @Test func aMissingFolderIsCreatedWithItsParents() throws {
    defer { cleanUp() }
    let folder = base.appendingPathComponent("a/b/c")
    #expect(try DataDirectory.prepare(folder.path, program: "test").path == folder.path)
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder))
    #expect(isFolder.boolValue)
    // No probe left; the lock that keeps a second copy of the program out.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [".test.lock"])
  }

  @Test func theProcessHoldingAFolderCanPrepareItAgain() throws {
    defer { cleanUp() }
    let folder = base.appendingPathComponent("held")
    _ = try DataDirectory.prepare(folder.path, program: "test")
    #expect(
      try DataDirectory.prepare(folder.path + "/.", program: "test").path.hasPrefix(folder.path))
    #expect(
      "\(DataDirectory.Problem.inUse("/d", program: "qapple"))"
        == "another qapple is using the data folder /d; quit it first, or choose another "
        + "--data-dir (two copies on one folder would overwrite each other's changes)")
  }

  @Test func aFileIsNotAFolder() throws {
    defer { cleanUp() }
    let file = base.appendingPathComponent("plain")
    try Data("x".utf8).write(to: file)
    #expect(throws: DataDirectory.Problem.notAFolder(file.path)) {
      try DataDirectory.prepare(file.path, program: "test")
    }
    #expect(
      "\(DataDirectory.Problem.notAFolder("/x"))" == "the data folder /x is a file, not a folder")
  }

  @Test func aFolderUnderAFileCannotBeCreatedAndTheMessageSaysWhy() throws {
    defer { cleanUp() }
    let file = base.appendingPathComponent("plain")
    try Data("x".utf8).write(to: file)
    let folder = file.appendingPathComponent("data")
    #expect(
      throws: DataDirectory.Problem.cannotCreate(
        folder.path, reason: "\(file.path) is a file, not a folder")
    ) {
      try DataDirectory.prepare(folder.path, program: "test")
    }
  }

  /// Root is not bound by permissions: the check probes for real, so as root a read-only
  /// folder is writable and accepted (correctly); as anyone else it is refused.
  @Test func aFolderThatCannotBeWrittenIsRefusedWithTheReason() throws {
    defer {
      chmod(base.path, 0o755)
      cleanUp()
    }
    chmod(base.path, 0o555)
    let probe = base.appendingPathComponent("probe")
    let writable = FileManager.default.createFile(atPath: probe.path, contents: nil)
    try? FileManager.default.removeItem(at: probe)
    if writable {
      #expect(try DataDirectory.prepare(base.path, program: "test").path == base.path)
    } else {
      #expect(
        throws: DataDirectory.Problem.notWritable(base.path, reason: "Permission denied")
      ) {
        try DataDirectory.prepare(base.path, program: "test")
      }
    }
  }

  @Test func aFolderWhereADataFileBelongsIsRefused() throws {
    defer { cleanUp() }
    let misplaced = base.appendingPathComponent("settings.json")
    try FileManager.default.createDirectory(at: misplaced, withIntermediateDirectories: true)
    #expect(throws: DataDirectory.Problem.dataFileIsAFolder(misplaced.path)) {
      try DataDirectory.prepare(base.path, program: "test", files: ["settings.json"])
    }
  }

  @Test func staleTemporaryFilesOfKilledWritersAreRemovedFreshOnesKept() throws {
    defer { cleanUp() }
    let stale = base.appendingPathComponent(".dat.nosyncAB12.xyz")
    let fresh = base.appendingPathComponent(".dat.nosyncCD34.xyz")
    let mine = base.appendingPathComponent("ranking.json")
    for file in [stale, fresh, mine] { try Data("x".utf8).write(to: file) }
    let hourAgo = Date().addingTimeInterval(-3600)
    try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: stale.path)
    try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: mine.path)
    _ = try DataDirectory.prepare(base.path, program: "test")
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    #expect(FileManager.default.fileExists(atPath: fresh.path))
    #expect(FileManager.default.fileExists(atPath: mine.path))
  }
}

@Suite struct FileRescueTests {
  @Test func eachRescueTakesANewNameAndNothingIsReplaced() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "file-rescue-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("bookmarks.json")
    // A user's own file already has the first name.
    let taken = folder.appendingPathComponent("bookmarks.unreadable-1.json")
    try Data("mine".utf8).write(to: taken)
    for text in ["first", "second"] {
      try Data(text.utf8).write(to: file)
      _ = try FileRescue.moveAside(file).get()
    }
    #expect(try Data(contentsOf: taken) == Data("mine".utf8))
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("bookmarks.unreadable-2.json"))
        == Data("first".utf8))
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("bookmarks.unreadable-3.json"))
        == Data("second".utf8))
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func aFileThatCannotBeMovedIsLeftWhereItIsWithTheReason() {
    let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/bookmarks.json")
    #expect(
      FileRescue.moveAside(missing)
        == .failure(FileRescue.Failure(reason: "No such file or directory")))
  }
}
