import Cascade

/// The actions one session (or replay) sent, and the step that failed, if one did.
struct FuzzSession<Action> {
  var actions: [Action]
  var violation: FuzzViolation?
}

extension Fuzzer {
  /// Runs a session on a fresh store: `script`'s actions when given, else `steps` actions drawn
  /// from `random`. Runtime warnings are collected for the whole session, effects included, and
  /// handed to the step during which they were reported.
  func execute(_ script: [Action]?, _ random: inout SeededGenerator) async -> FuzzSession<Action> {
    let reported = Guarded<[String]>([])
    let collect = RuntimeWarningHandler { warning in
      reported.withLock { $0.append(warning.message) }
    }
    return await RuntimeWarnings.$handler.withValue(collect) {
      await session(script, &random, reported)
    }
  }

  private func session(
    _ script: [Action]?, _ random: inout SeededGenerator, _ reported: Guarded<[String]>
  ) async -> FuzzSession<Action> {
    var subject = await setUp()
    let count = script?.count ?? steps
    var actions: [Action] = []
    actions.reserveCapacity(count)
    for index in 0..<count {
      let before = subject.store.state
      let action: Action
      if let script {
        action = script[index]
      } else {
        action = nextAction(before, subject.context, &random)
      }
      actions.append(action)
      await settle(subject.store.send(action), subject.context)
      let warnings = reported.withLock { warnings in
        defer { warnings.removeAll() }
        return warnings
      }
      let unexpected = warnings.first { !allowsWarning($0) }
      let step = FuzzStep(
        index: index, action: action, before: before, after: subject.store.state,
        warnings: unexpected == nil ? warnings : warnings.filter { allowsWarning($0) })
      if let message = invariant(step, &subject.context) {
        return FuzzSession(
          actions: actions, violation: FuzzViolation(step: index, message: message))
      }
      if let unexpected {
        let violation = FuzzViolation(
          step: index, message: "unexpected runtime warning: \(unexpected)", isWarning: true)
        return FuzzSession(actions: actions, violation: violation)
      }
    }
    return FuzzSession(actions: actions, violation: nil)
  }

  /// Replays the failing session's actions on fresh stores to find a shorter list that fails
  /// the same way: the prefix up to the failing step, then without chunks of halving size,
  /// down to single actions, until no single action can go.
  func shrink(seed: UInt64, actions: [Action], violation: FuzzViolation) async -> FuzzFailure<
    Action
  > {
    var random = SeededGenerator(seed: seed)
    var best = Array(actions.prefix(violation.step + 1))
    var replays = 1
    guard let again = await execute(best, &random).violation,
      again.isWarning == violation.isWarning
    else {
      return failure(seed, violation, actions: best, shrunk: nil, replays: replays)
    }
    best = Array(best.prefix(again.step + 1))
    var found = again
    var chunk = max(best.count / 2, 1)
    while replays < maxReplays {
      chunk = min(chunk, max(best.count / 2, 1))
      var removedAny = false
      var start = 0
      while start < best.count, replays < maxReplays {
        var candidate = best
        candidate.removeSubrange(start..<min(start + chunk, best.count))
        replays += 1
        if let failing = await execute(candidate, &random).violation,
          failing.isWarning == violation.isWarning
        {
          best = Array(candidate.prefix(failing.step + 1))
          found = failing
          removedAny = true
        } else {
          start += chunk
        }
      }
      if chunk > 1 {
        chunk /= 2
      } else if !removedAny {
        break
      }
    }
    return failure(
      seed, violation, actions: Array(actions.prefix(violation.step + 1)),
      shrunk: (best, found), replays: replays)
  }

  private func failure(
    _ seed: UInt64, _ violation: FuzzViolation, actions: [Action],
    shrunk: (actions: [Action], violation: FuzzViolation)?, replays: Int
  ) -> FuzzFailure<Action> {
    var lines = [
      "Fuzzing failed: seed \(seed), step \(violation.step) (counting from 0) of \(steps):",
      indented(violation.message),
    ]
    if let shrunk {
      lines.append(
        "Shortest failing list: \(shrunk.actions.count) of the \(actions.count) actions "
          + "(\(replays) replays); its last step fails with:")
      lines.append(indented(shrunk.violation.message))
      lines.append("Actions:")
      lines += shrunk.actions.map { indented(compactDump($0)) }
      lines.append(
        "Replay them with the fuzzer's replay(_:), or run seed \(seed) alone: "
          + "the session is the same every time.")
    } else {
      lines.append(
        "Replaying the same \(actions.count) actions on a fresh store did not fail again, so "
          + "the list was not shrunk: the session depends on something the seed does not fix "
          + "(wall-clock time, scheduling, state shared between stores). Its last actions:")
      lines += actions.suffix(20).map { indented(compactDump($0)) }
    }
    return FuzzFailure(
      seed: seed, step: violation.step, message: violation.message, actions: actions,
      shrunkActions: shrunk?.actions ?? actions,
      shrunkMessage: shrunk?.violation.message ?? violation.message, replays: replays,
      report: lines.joined(separator: "\n"))
  }
}
