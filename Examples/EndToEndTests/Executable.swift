import CascadeTesting
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
    var time = RunningTime()
    while process.isRunning, time.read() < .seconds(timeout) { usleep(10_000) }
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

/// A built executable running as a user drives it from a terminal or a script: lines written to
/// its standard input one at a time, its replies read from a pipe as they come, signals sent
/// while it runs. Every wait has a deadline, after which the test fails instead of hanging.
final class LiveProcess {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  /// Everything read from standard output so far.
  private(set) var transcript = ""
  private var unread = ""
  /// What `readErrors(until:timeout:)` has read from standard error so far.
  private var errorsRead = ""
  private var errorsUnread = ""

  /// Starts `executable` with `arguments` in `directory`, whose temporary directory is
  /// `temporaryDirectory`.
  init(
    _ executable: Executable, _ arguments: [String], in directory: URL, temporaryDirectory: URL
  ) throws {
    process.executableURL = executable.url
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporaryDirectory.path
    process.environment = environment
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  /// Types `line` and a newline.
  func type(_ line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// Closes standard input: the end of input.
  func closeInput() { try? input.fileHandleForWriting.close() }

  /// Stops reading standard output and closes it, as `app | head -1` does once `head` has its
  /// line: the program's next write finds no reader.
  func closeOutput() { try? output.fileHandleForReading.close() }

  /// Sends `signal` to the process.
  func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

  /// Reads standard output until `text` has appeared in what was not read before, and returns
  /// what was read up to and including it; `nil` when it did not appear within `timeout` (or
  /// the output ended).
  func read(until text: String, timeout: TimeInterval = 20) -> String? {
    Self.read(until: text, from: output, into: &transcript, unread: &unread, timeout: timeout)
  }

  /// Reads standard error as `read(until:timeout:)` reads standard output: for a progress line,
  /// which goes there. What it reads is part of `errorText`.
  func readErrors(until text: String, timeout: TimeInterval = 20) -> String? {
    Self.read(
      until: text, from: errors, into: &errorsRead, unread: &errorsUnread, timeout: timeout)
  }

  private static func read(
    until text: String, from pipe: Pipe, into transcript: inout String, unread: inout String,
    timeout: TimeInterval
  ) -> String? {
    var time = RunningTime()
    let descriptor = pipe.fileHandleForReading.fileDescriptor
    while true {
      if let range = unread.range(of: text) {
        let reply = String(unread[..<range.upperBound])
        unread = String(unread[range.upperBound...])
        return reply
      }
      let left = .seconds(timeout) - time.read()
      guard left > .zero else { return nil }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let wait = Int32(min(left, .seconds(1)) / .milliseconds(1))
      guard poll(&poller, 1, wait) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = Foundation.read(descriptor, &buffer, buffer.count)
      guard count > 0 else { return nil }
      let text = String(decoding: buffer[..<count], as: UTF8.self)
      transcript += text
      unread += text
    }
  }

  /// Waits for the process to exit; `nil` (and the process killed) when it outlives `timeout`.
  func exitStatus(timeout: TimeInterval = 30) -> Int32? {
    var time = RunningTime()
    while process.isRunning, time.read() < .seconds(timeout) { usleep(10_000) }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    return process.terminationStatus
  }

  /// Whether the process ended by calling `exit` (not killed by a signal).
  var exitedNormally: Bool { process.terminationReason == .exit }

  /// What the process wrote on standard error (read once it has exited).
  var errorText: String {
    errorsRead
      + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// The process's identifier.
  var pid: Int32 { process.processIdentifier }
}
