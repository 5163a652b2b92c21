// Lists the public symbols in the given symbol graphs that have no documentation comment, and
// exits non-zero if there are any. Run by .ci/run after the symbol graphs are emitted:
//   swift .ci/doc-coverage.swift <symbol-graph-dir> <Module>...
// A symbol counts as documented when it has a doc comment of its own, or is a default
// implementation or an override (DocC shows the inherited documentation), or has no source
// location (synthesized, or inherited from a standard-library protocol extension).
import Foundation

struct Graph: Decodable {
  struct Symbol: Decodable {
    struct Identifier: Decodable { let precise: String }
    struct Names: Decodable { let title: String }
    struct Kind: Decodable { let identifier: String }
    struct Location: Decodable {
      struct Position: Decodable { let line: Int }
      let uri: String
      let position: Position
    }
    struct DocComment: Decodable {}
    let identifier: Identifier
    let names: Names
    let kind: Kind
    let pathComponents: [String]
    let accessLevel: String
    let docComment: DocComment?
    let location: Location?
  }
  struct Relationship: Decodable {
    let kind: String
    let source: String
  }
  let symbols: [Symbol]
  let relationships: [Relationship]
}

let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first, arguments.count >= 2 else {
  print("usage: swift .ci/doc-coverage.swift <symbol-graph-dir> <Module>...")
  exit(2)
}
var missing: [String] = []
var total = 0
for module in arguments.dropFirst() {
  let url = URL(fileURLWithPath: directory).appendingPathComponent("\(module).symbols.json")
  let graph = try JSONDecoder().decode(Graph.self, from: Data(contentsOf: url))
  // Implementations of protocol requirements and overrides inherit their documentation.
  let inherits = Set(
    graph.relationships.filter { ["defaultImplementationOf", "overrides"].contains($0.kind) }
      .map(\.source))
  for symbol in graph.symbols where symbol.accessLevel == "public" || symbol.accessLevel == "open" {
    // Underscored names are implementation details DocC hides.
    guard !symbol.pathComponents.contains(where: { $0.hasPrefix("_") }) else { continue }
    guard let location = symbol.location else { continue }
    total += 1
    guard symbol.docComment == nil, !inherits.contains(symbol.identifier.precise) else { continue }
    let path = URL(string: location.uri)?.path ?? location.uri
    let name = symbol.pathComponents.joined(separator: ".")
    missing.append("\(path):\(location.position.line + 1): \(symbol.kind.identifier) \(name)")
  }
}
for line in missing.sorted() { print(line) }
print("\(total - missing.count) of \(total) public symbols documented")
exit(missing.isEmpty ? 0 : 1)
