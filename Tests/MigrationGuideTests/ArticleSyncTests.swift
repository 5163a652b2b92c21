// Keeps the migration article honest: every Swift block of MigratingFromTCA.md marked
// `<!-- region: name -->` must be an exact copy of the code between `// region: name` and
// `// endregion` in this folder's sources, which the compiler and the tests above check.

import Foundation
import Testing

/// A region of code: its name, its lines, and where it was found, for messages.
private struct Region {
  let name: String
  let lines: [String]
  let location: String
}

private enum RegionError: Error, CustomStringConvertible {
  case malformed(String)
  var description: String {
    switch self {
    case let .malformed(message): message
    }
  }
}

/// This folder, found from this file's path.
private let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// The article, at Sources/Cascade/Cascade.docc/MigratingFromTCA.md from the package root.
private let articleURL =
  testsFolder
  .deletingLastPathComponent()
  .deletingLastPathComponent()
  .appendingPathComponent("Sources/Cascade/Cascade.docc/MigratingFromTCA.md")

/// Lines as compared: trailing whitespace trimmed, blank lines at either end dropped.
private func normalized(_ lines: [String]) -> [String] {
  var lines = lines.map { line in
    var line = Substring(line)
    while let last = line.last, last.isWhitespace { line.removeLast() }
    return String(line)
  }
  while lines.first?.isEmpty == true { lines.removeFirst() }
  while lines.last?.isEmpty == true { lines.removeLast() }
  return lines
}

private func lines(of url: URL) throws -> [String] {
  try String(contentsOf: url, encoding: .utf8)
    .split(separator: "\n", omittingEmptySubsequences: false)
    .map(String.init)
}

/// The value after `prefix` on a trimmed line, if the line starts with it.
private func marker(_ line: String, _ prefix: String, suffix: String = "") -> String? {
  let trimmed = line.trimmingCharacters(in: .whitespaces)
  guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(suffix) else { return nil }
  let name = trimmed.dropFirst(prefix.count).dropLast(suffix.count)
  return name.trimmingCharacters(in: .whitespaces)
}

/// The regions of the Swift sources in this folder.
private func sourceRegions() throws -> [Region] {
  let files = try FileManager.default.contentsOfDirectory(
    at: testsFolder, includingPropertiesForKeys: nil
  )
  .filter { $0.pathExtension == "swift" }
  .sorted { $0.lastPathComponent < $1.lastPathComponent }
  var regions: [Region] = []
  for file in files {
    var open: (name: String, line: Int, lines: [String])?
    for (index, line) in try lines(of: file).enumerated() {
      let location = "\(file.lastPathComponent):\(index + 1)"
      if let name = marker(line, "// region:") {
        guard open == nil else {
          throw RegionError.malformed("\(location): region '\(name)' opens inside another one.")
        }
        open = (name, index + 1, [])
      } else if marker(line, "// endregion") != nil {
        guard let region = open else {
          throw RegionError.malformed("\(location): '// endregion' without a region to close.")
        }
        regions.append(
          Region(
            name: region.name, lines: normalized(region.lines),
            location: "\(file.lastPathComponent):\(region.line)"))
        open = nil
      } else if open != nil {
        open!.lines.append(line)
      }
    }
    if let open {
      throw RegionError.malformed(
        "\(file.lastPathComponent):\(open.line): region '\(open.name)' is never closed.")
    }
  }
  return regions
}

/// The marked Swift blocks of the article.
private func articleRegions() throws -> [Region] {
  let article = try lines(of: articleURL)
  var regions: [Region] = []
  var index = 0
  while index < article.count {
    defer { index += 1 }
    guard let name = marker(article[index], "<!-- region:", suffix: "-->") else { continue }
    let location = "MigratingFromTCA.md:\(index + 1)"
    guard index + 1 < article.count,
      article[index + 1].trimmingCharacters(in: .whitespaces) == "```swift"
    else {
      throw RegionError.malformed(
        "\(location): the marker of region '\(name)' must sit right above a ```swift block.")
    }
    guard let end = article[(index + 2)...].firstIndex(where: { $0.hasPrefix("```") }) else {
      throw RegionError.malformed("\(location): the block of region '\(name)' is never closed.")
    }
    regions.append(
      Region(name: name, lines: normalized(Array(article[(index + 2)..<end])), location: location))
    index = end
  }
  return regions
}

/// The first line where two regions differ, shown side by side.
private func firstDifference(article: [String], source: [String]) -> String {
  for index in 0..<max(article.count, source.count) {
    let inArticle = index < article.count ? article[index] : "(nothing: the block ends)"
    let inSource = index < source.count ? source[index] : "(nothing: the region ends)"
    if inArticle != inSource {
      return """
        line \(index + 1) of the block:
            article: \(inArticle)
            source:  \(inSource)
        """
    }
  }
  return "no difference"
}

@Suite struct ArticleSyncTests {
  @Test func everyMarkedBlockOfTheMigrationArticleIsItsCompiledSourceRegion() throws {
    let sources = try sourceRegions()
    let blocks = try articleRegions()
    try #require(!blocks.isEmpty, "MigratingFromTCA.md has no '<!-- region: ... -->' blocks.")

    var sourceByName: [String: Region] = [:]
    for region in sources {
      if let other = sourceByName[region.name] {
        Issue.record(
          "Region '\(region.name)' is defined twice: \(other.location) and \(region.location).")
      }
      sourceByName[region.name] = region
    }

    var shown = Set<String>()
    for block in blocks {
      shown.insert(block.name)
      guard let source = sourceByName[block.name] else {
        Issue.record(
          """
          \(block.location): the article shows region '\(block.name)', but no Swift file in \
          Tests/MigrationGuideTests marks it with '// region: \(block.name)'.
          """)
        continue
      }
      if block.lines != source.lines {
        Issue.record(
          """
          Region '\(block.name)' of MigratingFromTCA.md (\(block.location)) is not a copy of \
          its compiled source (\(source.location)); \
          \(firstDifference(article: block.lines, source: source.lines))
          Copy the region from the source into the article.
          """)
      }
    }

    for region in sources where !shown.contains(region.name) {
      Issue.record(
        """
        Region '\(region.name)' (\(region.location)) is marked in the sources but shown nowhere \
        in MigratingFromTCA.md: add '<!-- region: \(region.name) -->' above a copy of it, or \
        remove its markers.
        """)
    }
  }
}
