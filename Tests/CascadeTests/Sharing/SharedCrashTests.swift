import CascadeTesting
import Foundation
import Testing

@testable import Cascade

#if os(Linux) || os(macOS)
  /// The record `shared-crash-writer` writes.
  private struct Record: Codable {
    var count: Int
    var payload: String
    var checksum: Int

    var isWhole: Bool {
      checksum == payload.utf8.reduce(count) { $0 &* 31 &+ Int($1) }
    }
  }

  @Suite(.hangGuard)
  struct SharedCrashTests {
    /// The writer, built beside the test bundle by `swift build --build-tests`.
    private var writer: URL {
      get throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map {
          $0.appending(path: "shared-crash-writer")
        }
        return try #require(
          candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
          "shared-crash-writer was not built next to the tests (looked in \(folder.path))")
      }
    }

    /// Starts the writer and returns it with the count it loaded.
    private func startWriter(
      _ writer: URL, arguments: [String], environment: [String: String]? = nil
    ) throws -> (Process, Int) {
      let process = Process()
      process.executableURL = writer
      process.arguments = arguments
      if let environment {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      }
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
      let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
      guard parts.first == "loaded", let count = parts.last.flatMap({ Int($0) }) else {
        process.terminate()
        Issue.record("The writer did not load the file: \(line)")
        return (process, -1)
      }
      return (process, count)
    }

    @Test func aProcessKilledMidWriteAlwaysLeavesOneWholeValue() async throws {
      let writer = try writer
      let folder = FileManager.default.temporaryDirectory.appending(
        path: "cascade-crash-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let file = folder.appending(path: "record.json")
      var generator = SystemRandomNumberGenerator()
      var lastCount = 0
      var kills = 0
      for _ in 0..<15 {
        let (process, loaded) = try startWriter(writer, arguments: [file.path])
        // Each launch starts from what the killed one left: nothing it saved went missing.
        #expect(loaded >= lastCount)
        try await Task.sleep(for: .milliseconds(Int.random(in: 5...40, using: &generator)))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        kills += 1
        let data = try Data(contentsOf: file)
        let record = try JSONDecoder().decode(Record.self, from: data)
        #expect(record.isWhole, "a torn record after kill \(kills): count \(record.count)")
        #expect(record.count >= loaded)
        lastCount = record.count
      }
      #expect(kills == 15)
      #expect(lastCount > 0)
      // No temporary file of an interrupted atomic write is ever read as the value.
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(leftovers.contains("record.json"))
    }

    @Test func aProcessKilledWhileWritingUserDefaultsLeavesOneWholeValue() async throws {
      let writer = try writer
      // The child's defaults live in a folder of the test's own: $XDG_CONFIG_HOME/<suite>.plist.
      let home = FileManager.default.temporaryDirectory.appending(
        path: "cascade-crash-defaults-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: home) }
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
      let environment = ["XDG_CONFIG_HOME": home.path, "HOME": home.path]
      let plist = home.appending(path: "crash-suite.plist")
      var generator = SystemRandomNumberGenerator()
      var lastCount = 0
      for round in 1...10 {
        let (process, loaded) = try startWriter(
          writer, arguments: ["--defaults", "crash-suite"], environment: environment)
        #expect(loaded >= lastCount)
        try await Task.sleep(for: .milliseconds(Int.random(in: 10...60, using: &generator)))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let data = try Data(contentsOf: plist)
        let defaults = try #require(
          try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let line = try #require(defaults["record"] as? String, "no record after kill \(round)")
        let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
        let record = Record(
          count: Int(fields[0]) ?? -1, payload: fields.count == 3 ? fields[2] : "",
          checksum: fields.count > 1 ? Int(fields[1]) ?? 0 : 0)
        #expect(record.isWhole, "a torn record after kill \(round): \(line.prefix(40))")
        #expect(record.count >= loaded)
        lastCount = record.count
      }
      #expect(lastCount > 0)
    }

    @Test func aTruncatedFileGivesTheDefaultAndTheErrorNeverACrash() throws {
      let folder = FileManager.default.temporaryDirectory.appending(
        path: "cascade-truncated-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let file = folder.appending(path: "record.json")
      let whole = try JSONEncoder().encode(
        Record(count: 3, payload: String(repeating: "a", count: 100), checksum: 0))
      for length in [0, 1, whole.count / 2, whole.count - 1] {
        try whole.prefix(length).write(to: file)
        let storage = SharedStorage.disk(throttlesSaves: false)
        let shared = withDependencies {
          $0.sharedStorage = storage
        } operation: {
          Shared(wrappedValue: [Int](), .fileStorage(file))
        }
        #expect(shared.wrappedValue == [])
        #expect(shared.loadError != nil, "a \(length)-byte file loaded without an error")
      }
    }
  }
#endif
