/// What an interactive session does once a command has run.
public enum InteractiveReply: Sendable {
  /// Show where the session is now (the program's `show`).
  case show
  /// Show nothing more: the command already said what was wrong.
  case skip
  /// Leave the session, as at the end of input, with status 0.
  case quit
}

extension InteractiveInput {
  /// The loop every interactive example program runs: each line typed goes to `perform`, then
  /// `show` prints where the session is, unless the command said not to; `quit` leaves at once
  /// with status 0, and the end of input or a signal leaves with ``exitStatus``. `leave` saves
  /// what is waiting and exits; it is the only way out.
  ///
  /// ```swift
  /// await input.runSession(show: { print("count = \(store.count)") }, leave: recording.saveAndExit) {
  ///   line in
  ///   switch line {
  ///   case "+": store.send(.incrementButtonTapped)
  ///   case "quit": return .quit
  ///   default: print("unknown command '\(echo(line))'")
  ///   }
  ///   return .show
  /// }
  /// ```
  @MainActor
  public func runSession(
    show: () -> Void,
    leave: (_ status: Int32) async -> Never,
    perform: (_ line: String) async -> InteractiveReply
  ) async -> Never {
    for await line in lines {
      switch await perform(line) {
      case .show: show()
      case .skip: continue
      case .quit: await leave(0)
      }
    }
    await leave(exitStatus)
  }
}
