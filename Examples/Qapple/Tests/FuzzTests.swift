import Cascade
import CascadeExampleQapple
import CascadeExampleSupport
import CascadeTesting
import Foundation
import Testing

/// Random sessions of the whole app through a real store on a test clock, against a server
/// whose answers come back after latencies that differ per call, so pages and likes land out of
/// order: answer screens pushed and popped, scrolling, refreshes mid-load, likes tapped again
/// before the first one landed (some always fail), reports and deletions through their
/// dialogs, answers written (some fail), stale responses injected, actions for sheets, alerts
/// and screens already gone. After every step: no answer twice, answers newest first, the
/// cursor behind every loaded answer, at most one page load running per screen.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct QappleFuzzTests {
  static let seeds: [UInt64] = [2, 7, 18, 28]
  /// A fifth under ThreadSanitizer, whose run is several times slower: enough steps to reach
  /// every screen and effect it checks for races; the plain run keeps the whole budget.
  /// `.ci/run` sets `CASCADE_THREAD_SANITIZER=1` for its ThreadSanitizer pass.
  static let stepsPerSeed = underThreadSanitizer ? 500 : 2_500

  @Test func randomSessionsKeepTheAnswerListsSound() async {
    let result = await Self.fuzzer().run(seeds: Self.seeds)
    #expect(result.actionCount == Self.seeds.count * Self.stepsPerSeed || !result.passed)
  }

  /// The fuzzer above; `plantedBug` runs it on a mutated feature (see ExplorationTests).
  static func fuzzer(
    plantedBug: QapplePlantedBug = .none
  ) -> Fuzzer<TodayQuestionFeature.State, TodayQuestionFeature.Action, Server> {
    Fuzzer<TodayQuestionFeature.State, TodayQuestionFeature.Action, Server>(
      steps: Self.stepsPerSeed
    ) {
      Server.start(plantedBug: plantedBug)
    } action: { state, server, random in
      Self.randomAction(state, server: server, using: &random)
    } settle: { _, server in
      await server.settle()
    } allowsWarning: { message in
      ["A stack 'forEach' received", "while nothing was presented"].contains {
        message.contains($0)
      }
    } invariant: { step, server in
      server.check(step)
    }
  }
}

/// The question (id 4) and its answers 1...25 (20 and 25 are mine; liking 13 always fails),
/// served on a test clock with latencies that differ from call to call.
final class Server: Sendable {
  struct Data {
    var answers: [Int: Answer] = [:]
    var questionCalls = 0
    var likeCalls = 0
    var written = 0
    /// Page loads started and neither finished nor cancelled.
    var activePages = 0
  }

  let clock = TestClock()
  let data: Locked<Data>
  private let popups = Locked<[StackElementID]>([])
  static let question = Question(
    id: 4, content: "Q?", publishedDate: Date(timeIntervalSince1970: 0))

  init() {
    var data = Data()
    for id in 1...25 {
      data.answers[id] = Answer(
        id: id, content: "answer \(id)", authorNickname: "n\(id)",
        publishedDate: Date(timeIntervalSince1970: Double(id)), isMine: id == 20 || id == 25)
    }
    self.data = Locked(data)
  }

  /// Screens popped so far, for stale actions.
  var popped: [StackElementID] { popups.withLock { $0 } }

  @MainActor static func start(plantedBug: QapplePlantedBug = .none) -> FuzzSubject<
    TodayQuestionFeature.State, TodayQuestionFeature.Action, Server
  > {
    let server = Server()
    let store = Store(initialState: TodayQuestionFeature.State()) {
      TodayQuestionFeature()
    } withDependencies: {
      $0.answerRepository = server.repository
      $0.qapplePlantedBug = plantedBug
    }
    return FuzzSubject(store: store, context: server)
  }

  /// When the step being settled started: latencies count from there, so that a request whose
  /// task starts a little late still lands in the same step of every replay.
  private let stepStart = Locked(TestClock.Instant())

  /// Lets the step's requests start, then moves time on by 100 ms.
  func settle() async {
    for _ in 0..<8 { await Task.yield() }
    await clock.advance(by: .milliseconds(100))
    stepStart.withLock { $0 = clock.now }
  }

  /// Waits `milliseconds` on the test clock from the start of the step; `false` when cancelled.
  func wait(_ milliseconds: Int) async -> Bool {
    let deadline = stepStart.withLock { $0 }.advanced(by: .milliseconds(milliseconds))
    return (try? await clock.sleep(until: deadline)) != nil
  }

  var repository: AnswerRepository {
    AnswerRepository(
      todayQuestion: { () async throws(QappleError) -> Question in
        let call = self.data.withLock { data in
          data.questionCalls += 1
          return data.questionCalls
        }
        guard await self.wait(50), call % 3 != 1 else { throw QappleError("no question") }
        return Self.question
      },
      answers: { (_, threshold, size) async throws(QappleError) -> AnswerPage in
        try await self.page(after: threshold, size: size)
      },
      write: { (_, content) async throws(QappleError) -> Answer in
        guard await self.wait(100), !content.contains("fail") else {
          throw QappleError("not posted")
        }
        return self.data.withLock { data in
          data.written += 1
          let answer = Answer(
            id: 9000 + data.written, content: content, authorNickname: "Me",
            publishedDate: Date(timeIntervalSince1970: 0), isMine: true)
          data.answers[answer.id] = answer
          return answer
        }
      },
      setLiked: { (id, isLiked) async throws(QappleError) in
        let call = self.data.withLock { data in
          data.likeCalls += 1
          return data.likeCalls
        }
        // Every other like is slower: a second tap can land before the first.
        guard await self.wait(call.isMultiple(of: 2) ? 100 : 300), id != 13 else {
          throw QappleError("the like did not go through")
        }
        self.data.withLock { $0.answers[id]?.isLiked = isLiked }
      },
      report: { id async throws(QappleError) in
        guard await self.wait(50) else { throw QappleError("cancelled") }
        self.data.withLock { $0.answers[id]?.isReported = true }
      },
      delete: { id async throws(QappleError) in
        guard await self.wait(50) else { throw QappleError("cancelled") }
        self.data.withLock { $0.answers[id] = nil }
      })
  }

  /// Answers older than `threshold`, newest first; the first page takes longest, so a refresh
  /// can land before a page asked for earlier.
  func page(after threshold: String?, size: Int) async throws(QappleError) -> AnswerPage {
    data.withLock { $0.activePages += 1 }
    let finished = Locked(false)
    let finish: @Sendable () -> Void = {
      if !finished.withLock({ done in
        defer { done = true }
        return done
      }) {
        self.data.withLock { $0.activePages -= 1 }
      }
    }
    defer { finish() }
    let cursor = threshold.flatMap(Int.init) ?? Int.max
    let landed = await withTaskCancellationHandler {
      await wait(threshold == nil ? 300 : 100 + cursor % 3 * 100)
    } onCancel: {
      finish()
    }
    guard landed else { throw QappleError("cancelled") }
    return snapshot(after: threshold, size: size)
  }

  /// The page after `threshold` as the server has it now.
  func snapshot(after threshold: String?, size: Int) -> AnswerPage {
    let cursor = threshold.flatMap(Int.init) ?? Int.max
    return data.withLock { data in
      let all = data.answers.values.sorted { $0.id > $1.id }
      let after = all.filter { $0.id < cursor }
      let page = Array(after.prefix(size))
      return AnswerPage(
        answers: page, unreadable: [], threshold: page.last.map { "\($0.id)" },
        hasNext: after.count > page.count, total: data.answers.count)
    }
  }

  func record(popped ids: [StackElementID]) { popups.withLock { $0 += ids } }
}

extension Server {
  /// What must hold after every step; `nil` when it all does.
  func check(_ step: FuzzStep<TodayQuestionFeature.State, TodayQuestionFeature.Action>) -> String? {
    let remaining = Set(step.after.path.ids)
    record(popped: step.before.path.ids.filter { !remaining.contains($0) })
    for case .answers(let list) in step.after.path {
      if let problem = Self.problem(list) { return problem }
    }
    // One page load at a time per screen (an injected response can end the wait early, so the
    // request itself may still run, but never beside a second one).
    let active = data.withLock { $0.activePages }
    let screens = step.after.path.count
    if active > screens { return "\(active) page loads running for \(screens) screens" }
    if !step.after.path.isEmpty && step.after.question == nil {
      return "answers without a question"
    }
    return nil
  }

  static func problem(_ list: AnswerListFeature.State) -> String? {
    let ids = list.answers.ids
    if Set(ids).count != ids.count { return "an answer twice: \(ids)" }
    if zip(ids, ids.dropFirst()).contains(where: { $0 <= $1 }) {
      return "answers out of order: \(ids)"
    }
    if let threshold = list.threshold {
      guard let cursor = Int(threshold), ids.allSatisfy({ $0 >= cursor }) else {
        return "the cursor \(threshold) is not behind every loaded answer: \(ids)"
      }
    } else if ids.contains(where: { $0 < 9000 }) {
      return "answers of a page loaded, but no cursor: \(ids)"
    }
    return nil
  }
}

extension QappleFuzzTests {
  static let texts = [
    "A fine answer", "", "   ", "please fail", String(repeating: "x", count: 301),
  ]

  static func randomAction(
    _ state: TodayQuestionFeature.State, server: Server, using random: inout SeededGenerator
  ) -> TodayQuestionFeature.Action {
    let popped = server.popped
    let roll = Int.random(in: 0..<40, using: &random)
    let screen = state.path.ids.randomElement(using: &random)
    switch roll {
    case 0: return .onAppear
    case 1, 2: return .seeAnswersButtonTapped
    case 3: return .questionResponse(.failure(QappleError("injected")))
    case 4:
      guard let id = screen ?? popped.randomElement(using: &random) else { return .onAppear }
      return .path(.popFrom(id: id))
    case 5, 6:
      guard let id = popped.randomElement(using: &random) ?? screen else { return .onAppear }
      return .path(.element(id: id, action: .answers(.refreshPulled)))
    default:
      guard let id = screen, case .answers(let list)? = state.path[id: id] else {
        return .seeAnswersButtonTapped
      }
      let action = listAction(list, server: server, using: &random)
      return .path(.element(id: id, action: .answers(action)))
    }
  }

  static func listAction(
    _ list: AnswerListFeature.State, server: Server, using random: inout SeededGenerator
  ) -> AnswerListFeature.Action {
    let shown = list.answers.ids
    let pick = Bool.random(using: &random) ? shown.randomElement(using: &random) ?? 13 : 13
    let mine = shown.filter { list.answers[id: $0]?.isMine == true }.randomElement(using: &random)
    switch Int.random(in: 0..<20, using: &random) {
    case 0: return .onAppear
    case 1, 2, 3: return .answerAppeared(shown.suffix(4).randomElement(using: &random) ?? pick)
    case 4: return .refreshPulled
    case 5, 6: return .likeButtonTapped(pick)
    case 7: return .reportButtonTapped(pick)
    case 8: return .deleteButtonTapped(mine ?? pick)
    case 9:
      let action = list.dialog?.buttons.compactMap(\.action).first ?? .confirmReport(pick)
      return .dialog(Bool.random(using: &random) ? .presented(action) : .dismiss)
    case 10:
      // The alert's own button; a late tap on a closed alert's button is a dismissal.
      guard let action = list.alert?.buttons.compactMap(\.action).first else {
        return .alert(.dismiss)
      }
      return .alert(Bool.random(using: &random) ? .presented(action) : .dismiss)
    case 11: return .writeButtonTapped
    case 12: return .write(.presented(.textChanged(texts.randomElement(using: &random)!)))
    case 13, 14: return .write(.presented(.submitButtonTapped))
    case 15: return .write(.dismiss)
    case 16:
      let threshold = list.loadingThreshold ?? list.threshold
      return .pageResponse(threshold: threshold, .failure(QappleError("injected")))
    case 17: return .likeResponse(pick, .success(true))
    case 18:  // a page answered late, or twice
      let thresholds: [String?] = [nil, "5", "10", "15", "20"]
      let threshold = thresholds.randomElement(using: &random)!
      let page = server.snapshot(after: threshold, size: AnswerListFeature.pageSize)
      return .pageResponse(threshold: threshold, .success(page))
    default: return .answerAppeared(pick)
    }
  }
}

/// Whether this run is the ThreadSanitizer pass of `.ci/run` (`.ci/repeat-tests.sh` too), which
/// says so in the environment: `CASCADE_THREAD_SANITIZER=1 swift test --sanitize=thread`.
private let underThreadSanitizer =
  ProcessInfo.processInfo.environment["CASCADE_THREAD_SANITIZER"] == "1"
