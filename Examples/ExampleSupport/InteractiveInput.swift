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
/// next command. `lines` ends at the end of input, or at the first SIGINT (Ctrl-C), SIGTERM or
/// SIGHUP (a closed terminal): the session then leaves as it does after `quit`, saving what is
/// waiting, and exits with ``exitStatus`` (0, or 128 + the signal's number, as a shell
/// expects). A second signal while it leaves exits at once. A closed output pipe no longer
/// kills the process (SIGPIPE is ignored), so the work is still saved.
///
/// ```swift
/// let input = InteractiveInput()
/// for await line in input.lines {
///   // ...
/// }
/// await leave(status: input.exitStatus)
/// ```
public final class InteractiveInput: Sendable {
  /// The commands typed, one line each, without the newline.
  public let lines: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation
  /// The signal that ended the session, 0 when none did.
  private let stopSignal = Atomic<Int32>(0)
  /// Kept so the sources stay alive. `nonisolated(unsafe)`: appended to in `init` only,
  /// before the instance is shared, and never read.
  nonisolated(unsafe) private var signalSources: [any DispatchSourceSignal] = []

  /// Starts reading standard input and listening for SIGINT, SIGTERM and SIGHUP.
  public init() {
    (lines, continuation) = AsyncStream<String>.makeStream()
    signal(SIGPIPE, SIG_IGN)
    for number in [SIGINT, SIGTERM, SIGHUP] { listen(for: number) }
    let continuation = continuation
    let reader = Thread {
      while let line = readLine() { continuation.yield(line) }
      continuation.finish()
    }
    reader.name = "standard input"
    reader.start()
  }

  /// What the process should exit with once the session has left: 0 after the end of input,
  /// 128 + the signal's number after a signal.
  public var exitStatus: Int32 {
    let signal = stopSignal.load(ordering: .relaxed)
    return signal == 0 ? 0 : 128 + signal
  }

  private func listen(for number: Int32) {
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { [self] in
      let (exchanged, _) = stopSignal.compareExchange(
        expected: 0, desired: number, ordering: .relaxed)
      if exchanged {
        continuation.finish()
      } else {
        // A second signal: the user does not want to wait for the session to leave. `_exit`,
        // not `exit`: `exit` would run the process's teardown (atexit handlers, static
        // destructors) on this thread while the main thread is still using what it tears
        // down. Output is line-buffered, so every reply already printed is out.
        _exit(128 + number)
      }
    }
    source.resume()
    signalSources.append(source)
  }
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
