// Keeps the Architecture article true: every source file it names exists, every file of the
// rooms it maps (the store and its runtime, the child operators and their engine, the effect
// room) is named, the send it walks crosses at most 20 files, and each row of its "Which file
// owns what" table names exactly one file. `.ci/send-path.sh` checks the walk against what a
// send runs.

import Foundation
import Testing

private let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
private let library = packageRoot.appendingPathComponent("Sources/Cascade")

/// The rooms whose every file the article names, with their subfolders.
private let mappedRooms = ["Store", "Reducer/Children", "Effect"]

private func article() throws -> String {
  try String(
    contentsOf: library.appendingPathComponent("Cascade.docc/Architecture.md"), encoding: .utf8)
}

/// The `Room/File.swift` paths written in backticks in `text`.
private func namedFiles(in text: Substring) -> [String] {
  text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
    .filter { $0.offset % 2 == 1 && $0.element.hasSuffix(".swift") }
    .map { String($0.element) }
}

/// The rows of the article's table that starts with `header`, after its `| --- |` line.
private func tableRows(_ header: String, in text: String) throws -> [Substring] {
  let table = try #require(text.range(of: header), "Architecture.md has no \(header) table")
  return Array(
    text[table.upperBound...].split(separator: "\n")
      .drop { $0.hasPrefix("| ---") }
      .prefix { $0.hasPrefix("|") })
}

/// The Swift files under `room` (a folder of Sources/Cascade), as `room/…/File.swift`.
private func files(under room: String) -> [String] {
  let root = library.appendingPathComponent(room)
  guard let walk = FileManager.default.enumerator(atPath: root.path) else { return [] }
  return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    .map { "\(room)/\($0)" }.sorted()
}

@Suite struct ArchitectureArticleTests {
  @Test func everyFileTheArticleNamesExists() throws {
    let named = namedFiles(in: try article()[...])
    #expect(named.count >= 25, "the article names the files of the life of an action")
    for path in Set(named) {
      #expect(
        FileManager.default.fileExists(atPath: library.appendingPathComponent(path).path),
        "Architecture.md names \(path), which is not in Sources/Cascade: update the article")
    }
  }

  @Test func everyFileOfTheMappedRoomsIsNamed() throws {
    let named = Set(namedFiles(in: try article()[...]))
    for room in mappedRooms {
      let present = files(under: room)
      #expect(!present.isEmpty, "Sources/Cascade/\(room) has no Swift file: update mappedRooms")
      for file in present {
        #expect(
          named.contains(file),
          """
          Sources/Cascade/\(file) is not named in Architecture.md: say what it holds (the \
          article names every file of \(mappedRooms.joined(separator: ", ")))
          """)
      }
    }
  }

  @Test func theWalkedSendCrossesAtMostTwentyFiles() throws {
    let rows = try tableRows("| Step | File |", in: try article())
    let walked = rows.flatMap { namedFiles(in: $0) }
    #expect(Set(walked).count == walked.count, "the walk names each file once")
    #expect(walked.count >= 10, "the walk names the files one send runs")
    #expect(walked.count <= 20, "one send crosses \(walked.count) files; the target is 20")
  }

  @Test func eachMechanismHasOneOwner() throws {
    let rows = try tableRows("| Mechanism | Owner |", in: try article())
    #expect(rows.count >= 20)
    var owners: [String: String] = [:]
    for row in rows {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let files = namedFiles(in: Substring(cells.last ?? ""))
      #expect(files.count == 1, "\(row): one owner per mechanism")
      if let file = files.first, let mechanism = cells.first {
        #expect(owners[mechanism] == nil, "\(mechanism) is listed twice")
        owners[mechanism] = file
      }
    }
  }

  @Test func internalHoldsOnlyCrossRoomUtilities() throws {
    let files = try FileManager.default.contentsOfDirectory(
      atPath: library.appendingPathComponent("Internal").path
    ).filter { $0.hasSuffix(".swift") }.sorted()
    // A new file here needs a reason it belongs to no room; the article's room table says
    // what Internal/ holds.
    #expect(
      files == [
        "Guarded.swift", "Platform.swift", "RuntimeWarning.swift", "TestSupport.swift",
        "WeakReference.swift",
      ])
  }
}
