import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of a built example executable, as a user would run it: arguments, lines typed on
/// standard input, and a time limit after which it is killed and reported as hung.
struct Executable {
  /// What a run did.
  struct Run: CustomStringConvertible {
    let status: Int32
    let output: String
    let errors: String
    let hung: Bool

    var description: String {
      "\(hung ? "HUNG (killed)" : "exit \(status)")\n--- stdout\n\(output)--- stderr\n\(errors)"
    }
  }

  /// Where `swift build` put the executables: beside the test bundle running this (the same
  /// build directory), or `CASCADE_BIN_DIR`.
  static let directory: URL = {
    if let path = ProcessInfo.processInfo.environment["CASCADE_BIN_DIR"] {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    var url = Bundle.main.bundleURL
    // On Linux the test runner is `<build>/CascadePackageTests.xctest`; on macOS a bundle in
    // `<build>`, run by xctest from elsewhere.
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      url = bundle.bundleURL
    }
    if url.pathExtension != "xctest" {
      url = URL(fileURLWithPath: CommandLine.arguments[0])
    }
    return url.deletingLastPathComponent()
  }()

  let url: URL

  /// One of the package's executables, in the build directory.
  init(name: String) { url = Self.directory.appendingPathComponent(name) }

  /// Any program (a browser).
  init(url: URL) { self.url = url }

  var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

  /// Runs the executable with `arguments`, typing `input`, in a process whose temporary
  /// directory is `temporaryDirectory`; kills it after `timeout`.
  func run(
    _ arguments: [String], input: String = "", in directory: URL, temporaryDirectory: URL,
    timeout: TimeInterval = 30
  ) throws -> Run {
    let scratch = temporaryDirectory.deletingLastPathComponent().appendingPathComponent(
      "io-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let inputFile = scratch.appendingPathComponent("stdin")
    let outputFile = scratch.appendingPathComponent("stdout")
    let errorFile = scratch.appendingPathComponent("stderr")
    try Data(input.utf8).write(to: inputFile)
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporaryDirectory.path
    process.environment = environment
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    let hung = process.isRunning
    if hung {
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus,
      output: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "",
      errors: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "",
      hung: hung)
  }
}

/// Busy threads that keep the machine's cores loaded while they run, as on a busy machine.
final class CPULoad: @unchecked Sendable {
  // `@unchecked Sendable`: `running` is only read and written under `lock`.
  private let lock = NSLock()
  private var running = true
  private var threads: [Thread] = []

  /// Starts one busy thread per core (at least two).
  init() {
    for _ in 0..<max(2, ProcessInfo.processInfo.activeProcessorCount) {
      let thread = Thread { [self] in
        var spin: UInt64 = 0
        while isRunning {
          for _ in 0..<100_000 { spin = spin &* 6_364_136_223_846_793_005 &+ 1 }
        }
        if spin == 42 { print("") }  // keeps the loop from being optimized away
      }
      thread.start()
      threads.append(thread)
    }
  }

  private var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    return running
  }

  /// Stops the busy threads.
  func stop() {
    lock.lock()
    running = false
    lock.unlock()
  }
}
