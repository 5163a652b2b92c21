import Cascade
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What every example executable shares: reading its command line the same way, and running
/// its scripted scenario in a folder of its own.
///
/// Every executable reads its arguments with this one parser, so they all behave alike: an
/// unknown argument, an option given twice, an option without a value (or with an empty one,
/// or with another option where its value should be), a number out of range, and an option
/// that only applies to `--interactive` given without it, all print what is wrong and the
/// usage on standard error and exit 2. `--help` prints the usage and exits 0. Standard output
/// is line-buffered from then on, even into a pipe.
///
/// ```swift
/// let commandLine = ExampleCommandLine.parseOrExit(
///   program: "taptap", usage: usage, flags: ["--interactive"],
///   options: ["--data-dir", "--splash-ms"], interactiveOnly: ["--splash-ms"])
/// let splash = commandLine.integerOrExit("--splash-ms", in: 0...60_000) ?? 1550
/// ```
public struct ExampleCommandLine: Equatable, Sendable {
  /// The flags given (options without a value), `--help` included.
  public private(set) var flags: Set<String> = []
  /// The options given with their values.
  public private(set) var values: [String: String] = [:]
  /// The program's name, for messages.
  public var program = ""
  /// The usage text printed with `--help` and after an error.
  public var usage = ""

  /// Why the command line could not be read.
  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case missingValue(String)
    case unknownOption(String)
    case givenTwice(String)
    case emptyValue(String)
    /// An option was followed by another option instead of its value.
    case optionInsteadOfValue(String, String)
    /// An option (or flag) that only applies to `--interactive` was given without it.
    case needsInteractive(String)
    /// A value that is not what the option takes: the option, the value, what it takes.
    case badValue(String, String, String)
    /// Two arguments that cannot be given together.
    case conflicting(String, String)
    /// A path that cannot be used: the option, the path, why.
    case badPath(String, String, String)
    /// An output path that is a file the example apps keep: the option, the path, which file.
    case keptFile(String, String, String)

    public var description: String {
      switch self {
      case .missingValue(let option): "\(option) needs a value"
      case .unknownOption(let argument): "unknown option '\(argument)'"
      case .givenTwice(let option): "\(option) is given twice; give it once"
      case .emptyValue(let option): "\(option) needs a value, not an empty one"
      case .optionInsteadOfValue(let option, let other):
        "\(option) needs a value, but '\(other)' follows it"
      case .needsInteractive(let option): "\(option) only applies with --interactive"
      case .badValue(let option, let value, let expected):
        "\(option) takes \(expected), not '\(value)'"
      case .conflicting(let first, let second): "\(first) and \(second) cannot be given together"
      case .badPath(let option, let path, let reason): "\(option) cannot use '\(path)': \(reason)"
      case .keptFile(let option, let path, let file):
        "\(option) \(path) is one of the data files the example apps keep (\(file)); "
          + "name another file"
      }
    }
  }

  /// Reads `arguments` (without the program's name): each is one of `flags`, `--help`, or one
  /// of `options` followed by its value. Those in `interactiveOnly` need `--interactive`.
  public init(
    parsing arguments: some Sequence<String>, flags: Set<String> = [], options: Set<String> = [],
    interactiveOnly: Set<String> = []
  ) throws(ParseError) {
    var remaining = Array(arguments)[...]
    while let argument = remaining.popFirst() {
      if flags.contains(argument) || argument == "--help" {
        guard self.flags.insert(argument).inserted else { throw .givenTwice(argument) }
      } else if options.contains(argument) {
        guard let value = remaining.popFirst() else { throw .missingValue(argument) }
        guard !value.isEmpty else { throw .emptyValue(argument) }
        guard !value.hasPrefix("--") else { throw .optionInsteadOfValue(argument, value) }
        guard values.updateValue(value, forKey: argument) == nil else {
          throw .givenTwice(argument)
        }
      } else {
        throw .unknownOption(argument)
      }
    }
    guard !self.flags.contains("--help"), !self.flags.contains("--interactive") else { return }
    let given = self.flags.union(values.keys)
    if let option = interactiveOnly.sorted().first(where: given.contains) {
      throw .needsInteractive(option)
    }
  }

  /// Whether `flag` was given.
  public func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The value given for `option`, if any.
  public subscript(option: String) -> String? { values[option] }

  /// The whole number given for `option`, `nil` when it was not given; a value that is not a
  /// whole number in `range` is an error.
  public func integer(_ option: String, in range: ClosedRange<Int>) throws(ParseError) -> Int? {
    guard let text = values[option] else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw .badValue(
        option, text, "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  /// ``integer(_:in:)``, exiting with the error and the usage when the value is bad.
  public func integerOrExit(_ option: String, in range: ClosedRange<Int>) -> Int? {
    do { return try integer(option, in: range) } catch { exitWithUsageError(error) }
  }

  /// Prints `error` and the usage on standard error, and exits 2: the one way every example
  /// executable rejects its command line.
  public func exitWithUsageError(_ error: some CustomStringConvertible) -> Never {
    printError("\(program): \(error)\n\n\(usage)")
    exit(2)
  }

  /// The process's command line: `--help` prints `usage` and exits 0; a bad argument prints
  /// what is wrong and `usage` on standard error, and exits 2.
  public static func parseOrExit(
    program: String, usage: String, flags: Set<String> = [], options: Set<String> = [],
    interactiveOnly: Set<String> = [],
    arguments: [String] = Array(CommandLine.arguments.dropFirst())
  ) -> Self {
    keepStandardDescriptorsTaken()
    lineBufferStandardOutput()
    ensureEnoughOpenFiles(for: program)
    speakToTheUser(as: program)
    var commandLine = Self()
    commandLine.program = program
    commandLine.usage = usage
    do {
      var parsed = try Self(
        parsing: arguments, flags: flags, options: options, interactiveOnly: interactiveOnly)
      parsed.program = program
      parsed.usage = usage
      commandLine = parsed
    } catch {
      commandLine.exitWithUsageError(error)
    }
    if commandLine.has("--help") {
      print(usage)
      exit(0)
    }
    return commandLine
  }

  private init() {}
}

/// Makes standard output line-buffered, into a pipe too: a program driving a session reads
/// each reply as it comes, not when the buffer fills or the process ends. The C stream is found
/// by its symbol: Swift 6 refuses a reference to the `stdout` global as shared mutable state.
func lineBufferStandardOutput() {
  #if canImport(Darwin)
    let name = "__stdoutp"
    let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
  #else
    let name = "stdout"
    let handle = dlopen(nil, RTLD_NOW)
  #endif
  guard let symbol = dlsym(handle, name) else { return }
  let stream = symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee
  setvbuf(stream, nil, _IOLBF, 0)
}

/// The open files a program needs at least: its standard streams, the input and signal
/// threads' pipe, the data folder's lock, the runtime's event queues (three), and the data and
/// resource files it reads and writes.
let openFilesNeeded: rlim_t = 24

/// Raises the limit on open files to ``openFilesNeeded`` when it is lower and the hard limit
/// allows; otherwise says so and exits 2. With too few (`ulimit -n 8`) the runtime's event
/// queue could not be made and the program trapped instead of saying why.
func ensureEnoughOpenFiles(for program: String) {
  var limit = rlimit()
  guard getrlimit(resourceLimitOpenFiles, &limit) == 0, limit.rlim_cur < openFilesNeeded else {
    return
  }
  if limit.rlim_max >= openFilesNeeded {
    limit.rlim_cur = openFilesNeeded
    if setrlimit(resourceLimitOpenFiles, &limit) == 0 { return }
  }
  printError(
    "\(program): cannot open the files it needs: the limit on open files is "
      + "\(limit.rlim_cur) (ulimit -n), and it needs at least \(openFilesNeeded)")
  exit(2)
}

#if canImport(Glibc)
  private let resourceLimitOpenFiles = Int32(RLIMIT_NOFILE.rawValue)
#else
  private let resourceLimitOpenFiles = RLIMIT_NOFILE
#endif

/// Prints what the program's features report at run time (`reportIssue`: a file that could not
/// be read and was moved aside, a save that failed) as `program: message` on standard error:
/// said to the person running it, naming the file and the cause, without the source file and
/// line a developer's runtime warning carries.
func speakToTheUser(as program: String) {
  setIssueHandler { issue in printError("\(program): \(issue.message)") }
}

/// Prints `message` on standard error: where the example executables say what went wrong.
public func printError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
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
/// SIGINT, SIGTERM and SIGHUP in the middle remove the scratch folder and exit with 128 + the
/// signal's number; a closed output pipe (`app | head -1`) lets the scenario finish and clean up.
///
/// A `parent` folder that is not a folder the program can write in is refused first (see
/// ``DataDirectory/check(_:)``): the message says which path and why, and the exit status is 2.
@MainActor
public func runScenarioAndExit(
  program: String, inside parent: String? = nil,
  _ run: @MainActor (URL) async -> [String]
) async -> Never {
  if let parent {
    do { try DataDirectory.check(URL(fileURLWithPath: parent, isDirectory: true)) } catch {
      printError("\(program): \(error)")
      exit(2)
    }
  }
  // A signal or a closed output pipe in the middle leaves no scratch folder behind.
  removeTemporaryFoldersOnSignal()
  let failures = await withScratchDirectory(named: "\(program)-scenario", inside: parent) {
    folder in
    DataDirectory.removeAtExit(folder)
    return await run(folder)
  }
  if failures.isEmpty {
    print("\(program): scenario passed")
    exit(0)
  }
  print("\(program): scenario FAILED: \(failures.joined(separator: "; "))")
  exit(1)
}
