import Cascade

/// The texts of an exploration: its statistics, a counterexample's steps and its `TestStore`
/// test.
enum ExplorerReport {
  struct Statistics {
    let configurations: Int
    let transitions: Int
    let pruned: Int
    let byDepth: [Int]
    let depthCompleted: Int
    let requestedDepth: Int
    let fraction: Double?
    let duration: Duration
    let pruning: Bool
    let note: String?
  }

  static func report<State, Action>(
    _ statistics: Statistics, counterexample: ExplorationCounterexample<State, Action>?
  ) -> String {
    let counts = counts(statistics)
    guard let counterexample else {
      var reach: String
      if let fraction = statistics.fraction {
        let percent = Int((fraction * 100).rounded(.down))
        reach =
          "Exploration stopped: \(statistics.note ?? "the budget ran out"). It explored every "
          + "path to depth \(statistics.depthCompleted), \(percent)% of depth "
          + "\(statistics.depthCompleted + 1)."
      } else if let note = statistics.note {
        reach =
          "Explored every path to depth \(statistics.requestedDepth): \(note), so every longer "
          + "path goes through a configuration already explored."
      } else {
        reach = "Explored every path to depth \(statistics.depthCompleted)."
      }
      if statistics.pruning {
        reach += " (Paths that reached a configuration already explored were not followed again.)"
      }
      return reach + "\n" + counts
    }
    var lines = [
      "Exploration failed after \(counterexample.depth) event"
        + "\(counterexample.depth == 1 ? "" : "s") (every path of "
        + "\(counterexample.depth - 1) held, so none is shorter):",
      indented(counterexample.message),
      "Path:",
      indented(counterexample.steps),
      "As a TestStore test (make the store and clock as setUp does, then):",
      indented(counterexample.testStoreTest),
      counts,
    ]
    if counterexample.depth == 0 { lines = [counterexample.message, counts] }
    return lines.joined(separator: "\n")
  }

  private static func counts(_ statistics: Statistics) -> String {
    let seconds =
      Double(statistics.duration.components.seconds)
      + Double(statistics.duration.components.attoseconds) / 1e18
    let time = (seconds * 1000).rounded() / 1000
    return
      "\(statistics.configurations) configurations, \(statistics.transitions) transitions "
      + "(\(statistics.pruned) reached a configuration already known), depth "
      + "\(statistics.depthCompleted) of \(statistics.requestedDepth), \(time) s; new "
      + "configurations by depth: \(statistics.byDepth.map(String.init).joined(separator: ", "))"
  }

  static func counterexample<State, Action>(
    events: [ExplorationEvent<Action>], depth: Int, states: [State], message: String,
    isWarning: Bool, replayed: String?
  ) -> ExplorationCounterexample<State, Action> {
    var steps: [String] = []
    var test = ["store.exhaustivity = .off", "store.holdsReceivedActions = true"]
    var number = 0
    for event in events {
      switch event {
      case let .send(action):
        number += 1
        steps.append("\(number). send \(compactDump(action))")
        test.append("await store.send(\(compactDump(action)))")
      case let .receive(action, effect: 0):
        steps.append("   then receive \(compactDump(action)) (a reducer's .send, same event)")
        test.append("await store.receive(\(compactDump(action)))")
      case let .receive(action, effect):
        number += 1
        steps.append("\(number). receive \(compactDump(action)) from effect \(effect)")
        test.append("await store.receive(\(compactDump(action)))  // effect \(effect)")
      case let .advance(by: duration):
        number += 1
        steps.append("\(number). advance the clock by \(duration)")
        test.append("await clock.advance(by: \(swiftDuration(duration)))")
      }
    }
    let what = isWarning ? "The runtime warning is reported here" : "The invariant fails here"
    test.append("// \(what): \(message.split(separator: "\n").joined(separator: " "))")
    if replayed != message {
      let again = replayed.map { "failed with: \($0)" } ?? "did not fail"
      steps.append(
        "(Replayed on a fresh subject, the path \(again): something the path does not fix "
          + "shapes the feature: a dependency with a memory, wall-clock time, or "
          + "stateHoldsEverything set for a feature whose state is not everything.)")
    }
    return ExplorationCounterexample(
      events: events, depth: depth, states: states, message: message, isWarning: isWarning,
      steps: steps.joined(separator: "\n"), testStoreTest: test.joined(separator: "\n"))
  }

  /// A duration as Swift source: `.seconds(2)`, `.milliseconds(300)`, or nanoseconds.
  static func swiftDuration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return ".seconds(\(seconds))" }
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    if nanoseconds % 1_000_000 == 0 { return ".milliseconds(\(nanoseconds / 1_000_000))" }
    if nanoseconds % 1_000 == 0 { return ".microseconds(\(nanoseconds / 1_000))" }
    return ".nanoseconds(\(nanoseconds))"
  }
}
