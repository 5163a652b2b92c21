import Cascade

extension TestStore {
  /// Receives the next action an effect sent, checks it equals `expected`, reduces it and
  /// checks the state change.
  ///
  /// ```swift
  /// await store.send(.refreshTapped) { $0.isLoading = true }
  /// await store.receive(.schoolsLoaded([.seoulHigh])) {
  ///   $0.isLoading = false
  ///   $0.schools = [.seoulHigh]
  /// }
  /// ```
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      matching: { $0 == expected },
      expected: { received in
        let diff = stateDiff(expected, received) ?? stateDump(received)
        return "Received an unexpected action:\n\n\(indented(diff))\n\n(Expected: −, Received: +)"
      },
      description: describe(expected),
      timeout: timeout, update: updateStateToExpectedResult,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Receives the next action an effect sent, checks it is in the case `casePath` names
  /// (whatever its payload, which need not be `Equatable`), reduces it and checks the state.
  ///
  /// ```swift
  /// await store.receive(CasePath(Main.Action.path).appending(path: ...)) { ... }
  /// ```
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: { casePath.matches($0) },
      expected: { received in
        """
        Received an action in another case than expected:

        \(indented(stateDump(received)))

        (Expected an action carrying a '\(Value.self)'.)
        """
      },
      description: "an action carrying a '\(Value.self)'",
      timeout: timeout, update: updateStateToExpectedResult,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Receives the next action an effect sent, checks it is in the case built by `embed` (an
  /// enum case constructor), reduces it and checks the state.
  ///
  /// ```swift
  /// await store.receive(Main.Action.rankingResponse) { $0.ranking = expectedRanking }
  /// ```
  public func receive<Value>(
    _ embed: @escaping @Sendable (Value) -> Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      CasePath(embed), timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Receives the next action an effect sent, checks it follows `pattern` (a key path of case
  /// names and element ids, as in TCA), reduces it and checks the state. The payload need not
  /// be `Equatable`.
  ///
  /// ```swift
  /// await store.receive(\.path[id: 0].detail.loaded) {
  ///   $0.path[id: 0]?.detail?.isLoading = false
  /// }
  /// ```
  public func receive(
    _ pattern: KeyPath<ActionPattern, ActionPattern>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let pattern = ActionPattern()[keyPath: pattern]
    await receive(
      matching: { pattern.extract(from: $0) != nil },
      expected: { received in
        """
        Received an action that does not follow \(pattern.description):

        \(indented(stateDump(received)))
        """
      },
      description: "an action following \(pattern.description)",
      timeout: timeout, update: updateStateToExpectedResult,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Receives the next action an effect sent, checks it follows `pattern` and carries `value`
  /// at its end, reduces it and checks the state.
  ///
  /// ```swift
  /// await store.receive(\.delegate.saved, Item(id: 1, name: "Ada"))
  /// ```
  public func receive<Value: Equatable>(
    _ pattern: KeyPath<ActionPattern, ActionPattern>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let pattern = ActionPattern()[keyPath: pattern]
    await receive(
      matching: { pattern.extract(from: $0) as? Value == value },
      expected: { received in
        let payload = pattern.extract(from: received)
        let diff = payload.map { stateDiff(value as Any, $0) ?? stateDump($0) }
        return """
          Received an action that does not carry the expected value at \(pattern.description):

          \(indented(diff ?? stateDump(received)))

          (Expected: −, Received: +)
          """
      },
      description: "an action following \(pattern.description)",
      timeout: timeout, update: updateStateToExpectedResult,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Receives the next action an effect sent, checks `isMatching` accepts it, reduces it and
  /// checks the state.
  ///
  /// ```swift
  /// await store.receive { action in
  ///   if case .loaded(.success) = action { true } else { false }
  /// }
  /// ```
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: isMatching,
      expected: { received in
        """
        Received an action the predicate does not accept:

        \(indented(stateDump(received)))
        """
      },
      description: "an action the predicate accepts",
      timeout: timeout, update: updateStateToExpectedResult,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Reduces every action received so far without asserting them.
  public func skipReceivedActions(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await settle()
    skipQueuedActions(
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  func skipQueuedActions(at location: TestLocation) {
    while !received.isEmpty {
      let (action, cascade, _) = received.removeFirst()
      releaseIfDone(receivedEffects.removeFirst())
      ledger.removeFirstReceived()
      if case .off(showSkippedAssertions: true) = exhaustivity {
        showSkipped("received \(describe(action))", at: location)
      }
      holdingEffects { core.reduceReceived(action, cascade: cascade) }
      discardActionsOfCancelledEffects()
    }
    // What skipped actions did to shared state is skipped too, like the rest of their state.
    trackShared()
    for root in sharedRoots.values { root._endStep(toSend: false) }
  }

  private func receive(
    matching matches: (Action) -> Bool,
    expected mismatch: (Action) -> String,
    description: String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    at location: TestLocation
  ) async {
    await settle()
    let timeout = timeout ?? self.timeout
    while true {
      // With nothing queued and no effect running, nothing can arrive: fail at once.
      var why: String?
      if received.isEmpty {
        if ledger.runningSends.isEmpty {
          why = "no effect is running"
        } else if !(await waitForReceivedAction(timeout: timeout)) {
          why = "no action arrived within \(timeout)"
        }
      }
      if let why {
        reportFailure(
          """
          Expected to receive \(description), but \(why).

          If an effect waits on a clock, advance the test clock first; if it was cancelled or \
          finished without sending, this action is not coming.
          """, at: location)
        return
      }
      let index = holdsReceivedActions ? heldIndex(matching: matches) : 0
      let (action, cascade, shared) = received.remove(at: index)
      releaseIfDone(receivedEffects.remove(at: index))
      if index == 0 {
        ledger.removeFirstReceived()
      } else {
        ledger.keepReceived(at: Array(0..<index) + Array((index + 1)..<(received.count + 1)))
      }
      trackShared()
      // The step is checked against shared values as they were when the effect sent this
      // action: what the effect changed after sending it belongs to its next action.
      for (id, root) in sharedRoots { root._attributeReceived(shared[id]) }
      let before = core.state
      if matches(action) {
        stackElementIDsBefore = stackElementIDs.peek()
        // Warnings the library raises while the reducer runs name this line.
        _UserSite.$current.withValue(_UserSite(fileID: location.fileID, line: location.line)) {
          holdingEffects { core.reduceReceived(action, cascade: cascade) }
        }
        checkState(before: before, update: update, toSend: false, at: location)
        discardActionsOfCancelledEffects()
        await settle()
        return
      }
      if exhaustivity == .on {
        reportFailure(mismatch(action), at: location)
        holdingEffects { core.reduceReceived(action, cascade: cascade) }
        discardActionsOfCancelledEffects()
        return
      }
      if case .off(showSkippedAssertions: true) = exhaustivity {
        showSkipped("received \(describe(action))", at: location)
      }
      holdingEffects { core.reduceReceived(action, cascade: cascade) }
      discardActionsOfCancelledEffects()
    }
  }

  /// With ``holdsReceivedActions``: the position of the earliest waiting action `matches`
  /// accepts among each effect's oldest waiting one, or 0 (the oldest of all) when none does.
  private func heldIndex(matching matches: (Action) -> Bool) -> Int {
    var seen: [ObjectIdentifier?] = []
    for (index, effect) in receivedEffects.enumerated() {
      let id = effect.map(ObjectIdentifier.init)
      guard !seen.contains(id) else { continue }
      seen.append(id)
      if matches(received[index].action) { return index }
    }
    return 0
  }

  /// Waits until an effect sends an action, or the test's effects have been idle for
  /// `timeout` (time spent working on a busy machine does not count).
  private func waitForReceivedAction(timeout: Duration) async -> Bool {
    if !received.isEmpty { return true }
    let executor = self.executor
    let timer = Task { @MainActor [weak self] in
      await executor.waitUntilIdle(for: timeout)
      guard !Task.isCancelled, let self, let waiter = self.waiter else { return }
      self.waiter = nil
      waiter.resume(returning: false)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { self.waiter = $0 }
  }
}

extension TestStore {
  /// Waits for every effect to finish, then checks nothing was left unasserted: in exhaustive
  /// mode, received actions not received and effects still running fail the test (a running
  /// effect at the `send` that started it).
  ///
  /// ```swift
  /// await store.send(.onAppear)
  /// await store.receive(Feature.Action.loaded) { $0.items = [...] }
  /// await store.finish()
  /// ```
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle()
    let running = ledger.runningSends.map(\.cascade)
    _ = await withTimeout(timeout ?? self.timeout, idleOn: executor) {
      for cascade in running { await cascade.wait() }
    }
    await settle()
    if exhaustivity == .on {
      for (message, location) in ledger.outstandingFailures(endingAt: location) {
        reportFailure(message, at: location)
      }
    } else {
      skipQueuedActions(at: location)
    }
    // Reported once: what is left is cancelled and forgotten.
    received.removeAll()
    receivedEffects.removeAll()
    ledger.clear()
    core.runner.cancelAll()
  }

  /// Cancels every effect still running, so the test can end without waiting for them.
  public func skipInFlightEffects(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let running = ledger.runningSends
    if case .off(showSkippedAssertions: true) = exhaustivity {
      for send in running { showSkipped("effect still running for \(send.action)", at: location) }
    }
    core.runner.cancelAll()
    _ = await withTimeout(timeout, idleOn: executor) {
      for send in running { await send.cascade.wait() }
    }
  }
}
