import Cascade
import CascadeTestSupport
import CascadeTesting
import Testing

/// A counter with a planted bug: a delayed tick that lands while the count is exactly 2 adds
/// 100 ticks instead of one. A child that may be absent provokes runtime warnings.
private struct Toy: Reducer {
  struct State: Equatable {
    var count = 0
    var ticks = 0
    var child: Int?
  }
  enum Action: Equatable {
    case increment
    case reset
    case delayedTick
    case tick
    case openChild
    case closeChild
    case child(Child)
    enum Child: Equatable { case poke }
  }

  /// Whether the planted bug is in.
  var isBuggy = true

  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .increment: state.count += 1
      case .reset: state.count = 0
      case .delayedTick:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      case .tick: state.ticks += isBuggy && state.count == 2 ? 100 : 1
      case .openChild: state.child = 0
      case .closeChild: state.child = nil
      case .child: break
      }
      return .none
    }
    .ifLet(\.child, action: Action.child) {
      Reduce { child, _ in
        child += 1
        return .none
      }
    }
  }
}

/// What the fuzzer needs beside the store: the clock, and the ticks the model expects.
private struct Model {
  let clock: TestClock
  var expectedTicks = 0
}

/// The sessions a fuzzer ran, recorded from its invariant.
@MainActor private final class Sessions {
  var actions: [[Toy.Action]] = []
  var states: [Toy.State] = []
  var warnings: [String] = []

  func record(_ action: Toy.Action, _ state: Toy.State) {
    actions[actions.count - 1].append(action)
    states.append(state)
  }
}

@MainActor
private func toyFuzzer(
  isBuggy: Bool = true, alphabet: [Toy.Action] = [.increment, .reset, .delayedTick],
  sessions: Sessions? = nil, allowsWarning: @escaping @MainActor (String) -> Bool = { _ in false }
) -> Fuzzer<Toy.State, Toy.Action, Model> {
  Fuzzer(steps: 200) {
    let clock = TestClock()
    let store = Store(initialState: Toy.State()) {
      Toy(isBuggy: isBuggy)
    } withDependencies: {
      $0.continuousClock = clock
    }
    sessions?.actions.append([])
    return FuzzSubject(store: store, context: Model(clock: clock))
  } action: { _, _, random in
    alphabet.randomElement(using: &random)!
  } settle: { task, model in
    await model.clock.advance(by: .seconds(1), untilFinished: task)
  } allowsWarning: {
    allowsWarning($0)
  } invariant: { step, model in
    sessions?.record(step.action, step.after)
    sessions?.warnings += step.warnings
    if step.action == .delayedTick { model.expectedTicks += 1 }
    let ticks = step.after.ticks
    return ticks == model.expectedTicks ? nil : "\(ticks) ticks, \(model.expectedTicks) expected"
  }
}

@MainActor
@Suite(.serialized, .hangGuard)
struct FuzzerTests {
  @Test func aSeedIsAlwaysTheSameSession() async throws {
    let sessions = Sessions()
    let fuzzer = toyFuzzer(isBuggy: false, sessions: sessions)
    let result = await fuzzer.run(seeds: [7, 7, 8])
    #expect(result.passed && result.seeds == [7, 7, 8] && result.actionCount == 600)
    try #require(sessions.actions.count == 3 && sessions.actions.allSatisfy { $0.count == 200 })
    #expect(sessions.actions[0] == sessions.actions[1])
    #expect(sessions.actions[0] != sessions.actions[2])
    #expect(sessions.states[0..<200] == sessions.states[200..<400])
  }

  @Test func aPlantedBugIsFoundAndShrunkToTheShortestList() async throws {
    let fuzzer = toyFuzzer()
    let result: FuzzResult<Toy.Action>? = await fuzzer.run(seeds: [1, 2, 3], reportsFailure: false)
    let failure = try #require(result?.failure)
    #expect(failure.shrunkActions == [.increment, .increment, .delayedTick])
    #expect(failure.shrunkMessage == "100 ticks, 1 expected")
    #expect(failure.actions.count == failure.step + 1 && failure.actions.count > 3)
    let seeds = try #require(result?.seeds)
    #expect(seeds.last == failure.seed)
    #expect(result?.actionCount == 200 * (seeds.count - 1) + failure.step + 1)
    let replayed = await fuzzer.replay(failure.shrunkActions)
    #expect(replayed == FuzzViolation(step: 2, message: "100 ticks, 1 expected"))
    #expect(await fuzzer.replay([.increment, .delayedTick, .increment]) == nil)
    #expect(await fuzzer.replay(failure.actions)?.step == failure.step)
  }

  @Test func theReportNamesTheSeedTheStepTheMessageAndTheShortestList() async throws {
    let fuzzer = toyFuzzer()
    let reports = Box<[Issue]>([])  // the issues withKnownIssue matches
    var result: FuzzResult<Toy.Action>?
    await withKnownIssue {
      result = await fuzzer.run(seeds: [1, 2, 3])
    } matching: { issue in
      reports.update { $0.append(issue) }
      return true
    }
    let failure = try #require(result?.failure)
    let issue = try #require(reports.value.first)
    #expect(reports.value.count == 1)
    #expect(issue.sourceLocation?.fileID == "CascadeTestingTests/FuzzerTests.swift")
    #expect(issue.comments.map(\.rawValue) == [failure.report])
    let expectedHead = """
      Fuzzing failed: seed \(failure.seed), step \(failure.step) (counting from 0) of 200:
          \(failure.message)
      Shortest failing list: 3 of the \(failure.step + 1) actions (\(failure.replays) replays); \
      its last step fails with:
          100 ticks, 1 expected
      Actions:
          .increment
          .increment
          .delayedTick
      Replay them
      """
    #expect(failure.report.hasPrefix(expectedHead))
  }

  @Test func anUnexpectedRuntimeWarningFailsAndIsShrunkToo() async throws {
    let fuzzer = toyFuzzer(alphabet: [.openChild, .closeChild, .child(.poke)])
    let result: FuzzResult<Toy.Action>? = await fuzzer.run(seeds: [5], reportsFailure: false)
    let failure = try #require(result?.failure)
    #expect(failure.shrunkActions == [.child(.poke)])
    #expect(failure.shrunkMessage.contains("child state was nil"))
    #expect(await fuzzer.replay([.child(.poke)])?.isWarning == true)
  }

  @Test func expectedWarningsPassAndAreShownToTheInvariant() async {
    let alphabet: [Toy.Action] = [.increment, .delayedTick, .child(.poke), .openChild, .closeChild]
    let sessions = Sessions()
    let fuzzer = toyFuzzer(isBuggy: false, alphabet: alphabet, sessions: sessions) {
      $0.contains("child state was nil")
    }
    let result = await fuzzer.run(seeds: [1, 2])
    #expect(result.passed && result.actionCount == 400)
    #expect(sessions.warnings.count > 20)
    #expect(sessions.warnings.allSatisfy { $0.contains("child state was nil") })
  }
}
