import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines an interactive session types, read without ever blocking the main actor, and the
/// signals that end a session.
///
/// Standard input is read on a thread of its own, so the store's effects (a timer, a live
/// listing, a ranking stream) keep running on the main actor while the program waits for the
/// next command. `lines` ends at the end of input (a closed standard input, `app <&-`, is one),
/// or at the first SIGINT (Ctrl-C), SIGTERM or SIGHUP (a closed terminal) once the command
/// running then is done: lines typed ahead and not yet run are dropped, so a signal never waits
/// behind them. The session then leaves as it does after `quit`, saving what is waiting, and
/// exits with ``exitStatus`` (0, or 128 + the signal's number, as a shell expects). A second
/// signal while it leaves exits at once, saying on standard error what it did not save, and
/// removes the temporary data folder. A closed output pipe no longer kills the process (SIGPIPE
/// is ignored), so the work is still saved.
///
/// ```swift
/// let input = InteractiveInput(program: "counter", unsaved: ["the recording"])
/// for await line in input.lines {
///   // ...
/// }
/// await leave(status: input.exitStatus)
/// ```
public final class InteractiveInput: Sendable {
  /// The commands typed, one line each, without the newline; they end at the end of input or
  /// after a signal (the lines typed ahead are then dropped).
  public var lines: Lines { Lines(base: stream, input: self) }
  private let stream: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation
  /// The signal that ended the session, 0 when none did.
  private let stopSignal = Atomic<Int32>(0)
  private let program: String
  private let unsaved: [String]

  /// Starts reading standard input and listening for SIGINT, SIGTERM and SIGHUP. Make it
  /// before the session prepares anything a signal must not leave behind: from the moment
  /// this returns, a signal ends the session as `quit` does, never the process outright.
  ///
  /// - Parameters:
  ///   - program: The program's name, for the message a second signal prints.
  ///   - unsaved: What a second signal, exiting at once, leaves unsaved ("the recording to
  ///     session.json"), said on standard error when it happens.
  public init(program: String = "", unsaved: [String] = []) {
    self.program = program
    self.unsaved = unsaved
    (stream, continuation) = AsyncStream<String>.makeStream()
    signal(SIGPIPE, SIG_IGN)
    keepStandardDescriptorsTaken()
    _SignalPipe.install()
    let signalReader = Thread { [self] in
      while let number = _SignalPipe.next() { stop(by: number) }
    }
    signalReader.name = "signals"
    signalReader.start()
    let continuation = continuation
    let reader = Thread {
      while let line = readLine() { continuation.yield(line) }
      continuation.finish()
    }
    reader.name = "standard input"
    reader.start()
  }

  /// Whether a signal asked the session to end.
  public var isStopping: Bool { stopSignal.load(ordering: .relaxed) != 0 }

  /// What the process should exit with once the session has left: 0 after the end of input,
  /// 128 + the signal's number after a signal.
  public var exitStatus: Int32 {
    let signal = stopSignal.load(ordering: .relaxed)
    return signal == 0 ? 0 : 128 + signal
  }

  private func stop(by number: Int32) {
    let (exchanged, _) = stopSignal.compareExchange(
      expected: 0, desired: number, ordering: .relaxed)
    if exchanged {
      continuation.finish()
    } else {
      // A second signal: the user does not want to wait for the session to leave. `_exit`,
      // not `exit`: `exit` would run the process's teardown (atexit handlers, static
      // destructors) on this thread while the main thread is still using what it tears
      // down. Output is line-buffered, so every reply already printed is out.
      let name = program.isEmpty ? "" : "\(program): "
      let said =
        unsaved.isEmpty
        ? "\(name)a second signal: exiting at once, with nothing waiting to be saved\n"
        : "\(name)a second signal: exiting at once; not saved: "
          + unsaved.joined(separator: "; ") + "\n"
      said.utf8CString.withUnsafeBufferPointer { text in
        _ = write(2, text.baseAddress, text.count - 1)
      }
      DataDirectory.removeTemporaryFoldersNow(settling: true)
      _exit(128 + number)
    }
  }

  /// ``InteractiveInput/lines``: the lines typed, up to the end of input or a signal.
  ///
  /// ```swift
  /// for await line in input.lines { print(line) }
  /// ```
  public struct Lines: AsyncSequence, Sendable {
    public typealias Element = String
    public typealias Failure = Never
    let base: AsyncStream<String>
    let input: InteractiveInput

    /// Iterates the lines.
    public func makeAsyncIterator() -> Iterator {
      Iterator(base: base.makeAsyncIterator(), input: input)
    }

    /// The next line, `nil` at the end of input or once a signal came.
    public struct Iterator: AsyncIteratorProtocol {
      public typealias Element = String
      public typealias Failure = Never
      var base: AsyncStream<String>.Iterator
      let input: InteractiveInput

      /// The next line typed, `nil` when the session ends.
      public mutating func next() async -> String? {
        guard !input.isStopping else { return nil }
        let line = await base.next()
        return input.isStopping ? nil : line
      }

      /// The next line typed, `nil` when the session ends, run in `actor`'s isolation.
      public mutating func next(isolation actor: isolated (any Actor)?) async -> String? {
        guard !input.isStopping else { return nil }
        let line = await base.next(isolation: actor)
        return input.isStopping ? nil : line
      }
    }
  }
}

/// For a scripted scenario, which has nothing to save: SIGINT, SIGTERM and SIGHUP remove the
/// temporary folders (see ``DataDirectory/removeAtExit(_:)``) and exit at once with 128 + the
/// signal's number; a closed output pipe no longer kills the process before it cleans up.
func removeTemporaryFoldersOnSignal() {
  signal(SIGPIPE, SIG_IGN)
  _SignalPipe.install()
  let thread = Thread {
    while let number = _SignalPipe.next() {
      DataDirectory.removeTemporaryFoldersNow(settling: true)
      _exit(128 + number)
    }
  }
  thread.name = "signals"
  thread.start()
}

/// Standard input, output and error that were closed (`app <&-`) are opened on `/dev/null`, so
/// that no descriptor the program makes (a pipe, a lock file) takes their number: a closed
/// standard input is then the end of input, and a closed output swallows what is printed.
func keepStandardDescriptorsTaken() {
  for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
    let opened = open("/dev/null", O_RDWR)
    if opened >= 0, opened != descriptor {
      dup2(opened, descriptor)
      close(opened)
    }
  }
}

/// SIGINT, SIGTERM and SIGHUP, caught by a handler installed at once (`sigaction`), which only
/// writes the signal's number to a pipe; a thread reads the pipe. A dispatch signal source is
/// armed later, on its own queue, and a signal arriving before that was ignored and lost: the
/// session then never ended.
enum _SignalPipe {
  /// The pipe's ends; written once, before the handler is installed.
  nonisolated(unsafe) static var readEnd: Int32 = -1
  nonisolated(unsafe) static var writeEnd: Int32 = -1
  private static let installing = Mutex(false)

  /// Installs the handler, once per process.
  static func install() {
    installing.withLock { installed in
      guard !installed else { return }
      installed = true
      var ends: [Int32] = [-1, -1]
      guard pipe(&ends) == 0 else { return }
      (readEnd, writeEnd) = (ends[0], ends[1])
      var action = sigaction()
      #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = _signalCaught
      #else
        action.__sigaction_handler.sa_handler = _signalCaught
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      for number in [SIGINT, SIGTERM, SIGHUP] { sigaction(number, &action, nil) }
    }
  }

  /// The next signal caught, waiting for it; `nil` if the pipe could not be made.
  static func next() -> Int32? {
    guard readEnd >= 0 else { return nil }
    var number: Int32 = 0
    while true {
      let count = read(readEnd, &number, MemoryLayout<Int32>.size)
      if count == MemoryLayout<Int32>.size { return number }
      if count < 0, errno == EINTR { continue }
      return nil
    }
  }
}

/// The signal handler: only async-signal-safe work, a `write` of the number to the pipe.
private func _signalCaught(_ number: Int32) {
  var number = number
  let saved = errno
  _ = write(_SignalPipe.writeEnd, &number, MemoryLayout<Int32>.size)
  errno = saved
}

/// What the user typed, made safe to show back in a reply: control characters (escape
/// sequences, bells, carriage returns) are written as `\u{1B}` and the like instead of acting on
/// the terminal, and a line longer than `limit` characters is cut, with its length said.
///
/// ```swift
/// print("unknown command '\(echo(line))'; type 'help'")
/// ```
public func echo(_ typed: String, limit: Int = 40) -> String {
  var shown = ""
  for (index, character) in typed.enumerated() {
    guard index < limit else { return shown + "… (\(typed.count) characters)" }
    for scalar in character.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator:
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default:
        shown.unicodeScalars.append(scalar)
      }
    }
  }
  return shown
}
