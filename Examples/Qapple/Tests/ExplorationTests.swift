import Cascade
import CascadeExampleQapple
import CascadeTesting
import Foundation
import Testing

/// Every ordering, to a bounded depth, of what a user does on the answer list (appear, scroll to
/// the last answer, pull to refresh, like the first answer), the server's page and like responses
/// (each lands 100 ms after it was asked for, on a test clock) and the clock's deadlines. What
/// must hold after every event: never two page loads in flight at once; no answer twice, newest
/// first, with no gap (the answers shown are the server's first ones), the cursor behind them.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct QappleExplorationTests {
  typealias State = AnswerListFeature.State
  typealias Action = AnswerListFeature.Action

  /// A server of 25 answers whose every call lands 100 ms later; counts the page loads in flight.
  final class Backend: @unchecked Sendable {
    private let lock = NSLock()
    private var active = 0
    let clock = TestClock()

    var activePageLoads: Int { lock.withLock { active } }

    var repository: AnswerRepository {
      AnswerRepository(
        todayQuestion: { () async throws(QappleError) -> Question in Server.question },
        answers: { (_, threshold, size) async throws(QappleError) -> AnswerPage in
          self.lock.withLock { self.active += 1 }
          defer { self.lock.withLock { self.active -= 1 } }
          guard (try? await self.clock.sleep(for: .milliseconds(100))) != nil else {
            throw QappleError("cancelled")
          }
          return Self.page(after: threshold, size: size)
        },
        write: { (_, _) async throws(QappleError) -> Answer in throw QappleError("no writing") },
        setLiked: { (_, _) async throws(QappleError) in
          guard (try? await self.clock.sleep(for: .milliseconds(100))) != nil else {
            throw QappleError("cancelled")
          }
        },
        report: { _ async throws(QappleError) in },
        delete: { _ async throws(QappleError) in })
    }

    static let all = (1...25).reversed().map { id in
      Answer(
        id: id, content: "answer \(id)", authorNickname: "n\(id)",
        publishedDate: Date(timeIntervalSince1970: Double(id)))
    }

    static func page(after threshold: String?, size: Int) -> AnswerPage {
      let cursor = threshold.flatMap(Int.init) ?? Int.max
      let after = all.filter { $0.id < cursor }
      let page = Array(after.prefix(size))
      return AnswerPage(
        answers: page, unreadable: [], threshold: page.last.map { "\($0.id)" },
        hasNext: after.count > page.count, total: all.count)
    }
  }

  static func explorer(
    depth: Int, plantedBug: QapplePlantedBug = .none
  ) -> Explorer<State, Action, Backend> {
    Explorer<State, Action, Backend>(depth: depth) {
      let backend = Backend()
      let store = TestStore(initialState: State(question: Server.question)) {
        AnswerListFeature()
      } withDependencies: {
        $0.answerRepository = backend.repository
        $0.qapplePlantedBug = plantedBug
      }
      return ExplorationSubject(store: store, clock: backend.clock, context: backend)
    } actions: { state, _ in
      var actions: [Action] = [.onAppear, .refreshPulled]
      if let last = state.answers.last { actions.append(.answerAppeared(last.id)) }
      if let first = state.answers.first { actions.append(.likeButtonTapped(first.id)) }
      return actions
    } invariant: { state, backend in
      problem(state, backend: backend)
    }
  }

  static func problem(_ state: State, backend: Backend) -> String? {
    let loads = backend.activePageLoads
    if loads > 1 { return "\(loads) page loads in flight at once" }
    if let problem = Server.problem(state) { return problem }
    let shown = state.answers.ids
    let expected = Backend.all.prefix(shown.count).map(\.id)
    if shown != expected { return "the answers shown \(shown) are not the server's first ones" }
    return nil
  }

  @Test func everyPathLoadsEachPageOnceAndInOrder() async {
    let result = await Self.explorer(depth: 8).run()
    #expect(result.isComplete)
    #expect(result.depthCompleted == 8)
    print(result.report)
  }

  @Test func aPageLoadWithoutCancelInFlightRunsTwice() async throws {
    let result = await Self.explorer(depth: 6, plantedBug: .pageLoadWithoutCancelInFlight)
      .run(reportsFailure: false)
    let failure = try #require(result.counterexample)
    print(failure.steps)
    #expect(failure.depth == 2)
    #expect(result.depthCompleted == 1)
    #expect(await Self.explorer(depth: 1, plantedBug: .pageLoadWithoutCancelInFlight).run().passed)
  }

  @Test(.enabled(if: fuzzComparison)) func theSeededFuzzerOnTheSameBug() async throws {
    let fuzzer = QappleFuzzTests.fuzzer(plantedBug: .pageLoadWithoutCancelInFlight)
    let result = await fuzzer.run(seeds: QappleFuzzTests.seeds, reportsFailure: false)
    // Found on the second seed at its 638th action, shrunk to 33 actions; the explorer's
    // counterexample has 2 events.
    let failure = try #require(result.failure)
    #expect(failure.seed == 2)
    #expect(failure.step == 638)
    #expect(failure.shrunkActions.count == 33)
  }
}

/// The comparison with the seeded fuzzer runs whole fuzzing sessions (up to a minute in a debug
/// build); it runs when `CASCADE_FUZZ_COMPARISON` is set, and asserts the outcome recorded here.
let fuzzComparison = ProcessInfo.processInfo.environment["CASCADE_FUZZ_COMPARISON"] != nil
