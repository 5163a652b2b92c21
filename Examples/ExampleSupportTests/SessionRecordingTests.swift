import Cascade
import CascadeExampleSupport
import Foundation
import Testing

@MainActor
@Suite struct SessionRecordingTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "session-recording-\(UUID().uuidString)", isDirectory: true)

  init() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  @Test func aFileInAFolderThatCanBeWrittenIsAccepted() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("session.json").path
    #expect(try SessionRecording<Int, Int>.check(path).path == path)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [], "no probe left")
  }

  @Test func aPathThatCannotBeWrittenIsRefusedWithTheReason() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("a-file")
    try Data().write(to: file)
    let cases = [
      (folder.path, "it is a folder; name a file in it"),
      (folder.path + "/missing/session.json", "the folder \(folder.path)/missing does not exist"),
      (file.path + "/session.json", "\(file.path) is a file, not a folder"),
    ]
    for (path, reason) in cases {
      #expect(throws: ExampleCommandLine.ParseError.badPath("--record", path, reason)) {
        try SessionRecording<Int, Int>.check(path)
      }
    }
    #expect(
      "\(ExampleCommandLine.ParseError.badPath("--record", "x", "why"))"
        == "--record cannot use 'x': why")
  }

  @Test func withoutRecordNothingIsRecorded() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let commandLine = try ExampleCommandLine(parsing: [], options: ["--record"])
    let recording = SessionRecording<Int, Int>(commandLine)
    #expect(recording.recorder == nil && recording.file == nil)
    #expect(recording.save() == [])
  }
}
