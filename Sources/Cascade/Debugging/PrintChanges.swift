import Foundation

extension Reducer {
  /// Prints every action this reducer handles and how it changed the state: the action on one
  /// line, then a `−/+` diff of the state, or "(no state changes)".
  ///
  /// ```swift
  /// let store = Store(initialState: App.State()) {
  ///   App().printChanges()
  /// }
  /// // received action: .counter(.incrementTapped)
  /// //     App.State(
  /// //       counter: Counter.State(
  /// //   −     count: 0
  /// //   +     count: 1
  /// //       )
  /// //     )
  /// ```
  ///
  /// - Parameters:
  ///   - printer: Where the lines go: standard output (the default), a closure, or a log file.
  ///   - maxElements: Show at most this many elements of each collection (`nil`: all). A change
  ///     among the elements not shown is still reported.
  public func printChanges(
    to printer: ChangePrinter = .standardOutput, maxElements: Int? = nil
  ) -> _InterceptReducer<Self> {
    _InterceptReducer(base: self) { state, action, reduce in
      let before = state
      let effect = reduce(&state)
      var text = "received action: \(compactDump(action, maxElements: maxElements ?? 5))"
      if let diff = stateDiff(before, state, maxElements: maxElements) {
        text +=
          "\n"
          + diff.split(separator: "\n", omittingEmptySubsequences: false)
          .map { "    " + $0 }.joined(separator: "\n")
      } else if maxElements != nil, stateDiff(before, state) != nil {
        text += "\n    (changes among collection elements not shown)"
      } else {
        text += "\n    (no state changes)"
      }
      printer.write(text)
      return effect
    }
  }
}

/// Where `printChanges` writes.
public struct ChangePrinter: Sendable {
  private let write: @Sendable (String) -> Void

  /// A printer that hands each entry to `write`.
  public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

  func write(_ text: String) { write(text) }

  /// Standard output.
  public static let standardOutput = ChangePrinter { print($0) }

  /// Each entry handed to `closure`, e.g. to collect a transcript.
  public static func closure(_ closure: @escaping @Sendable (String) -> Void) -> Self {
    ChangePrinter(closure)
  }

  /// Each entry appended to the file at `url` (created if needed).
  public static func file(_ url: URL) -> Self {
    let handle = Guarded<FileHandle?>(nil)
    return ChangePrinter { text in
      handle.withLock { handle in
        if handle == nil {
          if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
          }
          handle = try? FileHandle(forWritingTo: url)
          _ = try? handle?.seekToEnd()
        }
        handle?.write(Data((text + "\n").utf8))
      }
    }
  }
}
