// Keeps the Architecture article true: every source file it names exists, and each row of its
// "Which file owns what" table names exactly one file.

import Foundation
import Testing

private let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let library = packageRoot.appendingPathComponent("Sources/Cascade")

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

  @Test func eachMechanismHasOneOwner() throws {
    let text = try article()
    let table = try #require(text.range(of: "| Mechanism | Owner |"))
    let rows = text[table.upperBound...].split(separator: "\n")
      .drop { $0.hasPrefix("| ---") }
      .prefix { $0.hasPrefix("|") }
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
        "AnyID.swift", "Guarded.swift", "Platform.swift", "RuntimeWarning.swift",
        "TestSupport.swift", "WeakReference.swift",
      ])
  }
}
