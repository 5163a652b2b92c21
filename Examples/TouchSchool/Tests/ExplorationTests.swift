import Cascade
import CascadeExampleTouchSchool
import CascadeTesting
import Foundation
import Testing

/// Every ordering, to a bounded depth, of what a player does once their school is picked (push
/// a game, tap, go back, pop the whole stack, open the ranking), the batch timers' deadlines and
/// the writes they start. What must hold after every event: no tap is lost (every tap made on a
/// game is in the shared ranking or still waiting in a game's batch on the stack), no more is
/// written than was taken, and every pushed screen reads the main screen's ranking.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct TouchSchoolExplorationTests {
  typealias State = MainFeature.State
  typealias Action = MainFeature.Action

  /// Taps made on a game on the stack (seen before the reducer runs) and touches written.
  final class Ledger: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (taps: 0, written: 0)

    var taps: Int { lock.withLock { counts.taps } }
    var written: Int { lock.withLock { counts.written } }

    func see(_ state: State, _ action: Action) {
      guard case .path(.element(let id, .game(.touchTapped))) = action,
        case .game? = state.path[id: id]
      else { return }
      lock.withLock { counts.taps += 1 }
    }

    func write(_ count: Int) { lock.withLock { counts.written += count } }
  }

  static let school = School(
    id: "7010057", name: "Seoul Daedo Elementary", address: "Gangnam-gu", level: .elementary)

  static func explorer(
    depth: Int, plantedBug: TouchSchoolPlantedBug = .none
  ) -> Explorer<State, Action, Ledger> {
    Explorer<State, Action, Ledger>(
      depth: depth,
      key: .custom { state, ledger in
        "\(stateDump(state))\ntaps \(ledger.taps) written \(ledger.written)"
      }
    ) {
      let clock = TestClock()
      let ledger = Ledger()
      var initial = State()
      initial.phase = .loaded
      initial.schools = [school]
      initial.mySchool = school
      let store = TestStore(initialState: initial) {
        MainFeature().intercept(before: { state, action in ledger.see(state, action) })
      } withDependencies: {
        $0.continuousClock = clock
        $0.touchSchoolPlantedBug = plantedBug
        $0.ranking = RankingClient(
          snapshots: { AsyncStream { $0.finish() } },
          addTouches: { _, count in ledger.write(count) })
      }
      // The ranking is shared state the explorer's replays change without asserting it.
      store.exhaustivity = .off
      return ExplorationSubject(store: store, clock: clock, context: ledger)
    } actions: { state, _ in
      actions(state)
    } invariant: { state, ledger in
      problem(state, ledger: ledger)
    }
  }

  static func actions(_ state: State) -> [Action] {
    var actions: [Action] = []
    if state.path.count < 2 { actions += [.playTapped, .rankTapped] }
    if let top = state.path.ids.last {
      switch state.path[id: top] {
      case .game?:
        actions += [.path(.element(id: top, action: .game(.touchTapped)))]
        actions += [.path(.element(id: top, action: .game(.backTapped)))]
      case .rank?:
        actions += [.path(.element(id: top, action: .rank(.backTapped)))]
      case nil: break
      }
    }
    if let bottom = state.path.ids.first { actions.append(.path(.popFrom(id: bottom))) }
    return actions
  }

  static func problem(_ state: State, ledger: Ledger) -> String? {
    let pending = World.pending(state)
    let counted = state.ranking.touches(for: school.id)
    if ledger.taps != counted + pending {
      return "\(ledger.taps) taps, but \(counted) in the ranking and \(pending) waiting"
    }
    if ledger.written > counted { return "\(ledger.written) written, only \(counted) taken" }
    return World.screenProblem(state)
  }

  @Test func everyPathKeepsEveryTap() async {
    let result = await Self.explorer(depth: 6).run()
    #expect(result.isComplete)
    #expect(result.depthCompleted == 6)
    print(result.report)
  }

  @Test func aPopThatForgetsTheBatchLosesTaps() async throws {
    let result = await Self.explorer(depth: 6, plantedBug: .popWithoutSavingBatch)
      .run(reportsFailure: false)
    let failure = try #require(result.counterexample)
    print(failure.steps)
    #expect(failure.depth == 3)
    #expect(result.depthCompleted == 2)
    #expect(await Self.explorer(depth: 2, plantedBug: .popWithoutSavingBatch).run().passed)
  }

  @Test(.enabled(if: fuzzComparison)) func theSeededFuzzerOnTheSameBug() async throws {
    let fuzzer = TouchSchoolFuzzTests.fuzzer(plantedBug: .popWithoutSavingBatch)
    let result = await fuzzer.run(seeds: TouchSchoolFuzzTests.seeds, reportsFailure: false)
    // Found on the third seed at its 42nd action, shrunk to 10 actions; the explorer's
    // counterexample has 3 events.
    let failure = try #require(result.failure)
    #expect(failure.seed == 3)
    #expect(failure.step == 42)
    #expect(failure.shrunkActions.count == 10)
  }
}

/// The comparison with the seeded fuzzer runs whole fuzzing sessions (up to a minute in a debug
/// build); it runs when `CASCADE_FUZZ_COMPARISON` is set, and asserts the outcome recorded here.
let fuzzComparison = ProcessInfo.processInfo.environment["CASCADE_FUZZ_COMPARISON"] != nil
