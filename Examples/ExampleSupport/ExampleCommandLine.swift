import Foundation

/// What every example executable shares: reading its command line, and running its scripted
/// scenario in a folder of its own.
///
/// ```swift
/// let commandLine = ExampleCommandLine.parseOrExit(
///   program: "taptap", usage: usage, flags: ["--interactive"], options: ["--data-dir"])
/// guard commandLine.has("--interactive") else {
///   await runScenarioAndExit(program: "taptap", inside: commandLine["--data-dir"]) { folder in
///     await TapTapScenario(dataDirectory: folder, print: { print($0) }).run()
///   }
/// }
/// ```
public struct ExampleCommandLine: Equatable, Sendable {
  /// The flags given (options without a value), `--help` included.
  public private(set) var flags: Set<String> = []
  /// The options given with their values.
  public private(set) var values: [String: String] = [:]

  /// Why the command line could not be read.
  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case missingValue(String)
    case unknownOption(String)

    public var description: String {
      switch self {
      case .missingValue(let option): "\(option) needs a value"
      case .unknownOption(let argument): "unknown option '\(argument)'"
      }
    }
  }

  /// Reads `arguments` (without the program's name): each is one of `flags`, `--help`, or one
  /// of `options` followed by its value.
  public init(
    parsing arguments: some Sequence<String>, flags: Set<String> = [], options: Set<String> = []
  ) throws(ParseError) {
    var remaining = Array(arguments)[...]
    while let argument = remaining.popFirst() {
      if flags.contains(argument) || argument == "--help" {
        self.flags.insert(argument)
      } else if options.contains(argument) {
        guard let value = remaining.popFirst() else { throw .missingValue(argument) }
        values[argument] = value
      } else {
        throw .unknownOption(argument)
      }
    }
  }

  /// Whether `flag` was given.
  public func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The value given for `option`, if any.
  public subscript(option: String) -> String? { values[option] }

  /// The process's command line: `--help` prints `usage` and exits 0; a bad argument prints
  /// what is wrong and `usage`, and exits 2.
  public static func parseOrExit(
    program: String, usage: String, flags: Set<String> = [], options: Set<String> = []
  ) -> Self {
    do {
      let commandLine = try Self(
        parsing: CommandLine.arguments.dropFirst(), flags: flags, options: options)
      if commandLine.has("--help") {
        print(usage)
        exit(0)
      }
      return commandLine
    } catch {
      print("\(program): \(error)\n\n\(usage)")
      exit(2)
    }
  }

  /// Where an interactive session keeps its data: `--data-dir`, else a new temporary folder
  /// named after `program`. The folder exists when this returns.
  public func dataDirectory(program: String) -> URL {
    let folder =
      self["--data-dir"].map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "\(program)-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}

/// Runs `body` with a new, empty folder, inside `parent` (a path) or the temporary directory,
/// and removes the folder afterwards. A scenario that resets its files there can never touch
/// the user's own data in `parent`.
public func withScratchDirectory<Result>(
  named name: String, inside parent: String? = nil,
  _ body: (URL) async throws -> Result,
  isolation: isolated (any Actor)? = #isolation
) async rethrows -> Result {
  let base =
    parent.map { URL(fileURLWithPath: $0, isDirectory: true) }
    ?? FileManager.default.temporaryDirectory
  let folder = base.appendingPathComponent(
    "\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))",
    isDirectory: true)
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try await body(folder)
}

/// Runs a scripted scenario in a scratch folder (see ``withScratchDirectory(named:inside:_:isolation:)``),
/// prints the verdict and exits: 0 when `run` returned no failed expectation, 1 otherwise.
@MainActor
public func runScenarioAndExit(
  program: String, inside parent: String? = nil,
  _ run: @MainActor (URL) async -> [String]
) async -> Never {
  let failures = await withScratchDirectory(named: "\(program)-scenario", inside: parent, run)
  if failures.isEmpty {
    print("\(program): scenario passed")
    exit(0)
  }
  print("\(program): scenario FAILED: \(failures.joined(separator: "; "))")
  exit(1)
}
