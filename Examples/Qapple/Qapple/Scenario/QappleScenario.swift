import Cascade
import CascadeExampleSupport
import Foundation

/// Qapple's scripted scenario, offline against the shipped data set and a local store in
/// `dataDirectory`: read today's question, scroll through every page of answers, write one,
/// like, report, delete, and see a failed like rolled back.
@MainActor
public final class QappleScenario {
  /// The answer whose likes fail, to show the rollback.
  public static let failingAnswerID = 1123

  private let print: ScenarioPrinter
  private let dataDirectory: URL
  private let checks: ScenarioChecks
  private let recorder: Recorder<TodayQuestionFeature.State, TodayQuestionFeature.Action>?

  /// - Parameter recorder: Records the session (`--record`).
  public init(
    dataDirectory: URL,
    recorder: Recorder<TodayQuestionFeature.State, TodayQuestionFeature.Action>? = nil,
    print: @escaping ScenarioPrinter
  ) {
    self.recorder = recorder
    self.dataDirectory = dataDirectory
    self.print = print
    self.checks = ScenarioChecks(print: print)
  }

  /// Runs the scenario; returns the expectations that failed (none when it passed).
  public func run() async -> [String] {
    let (print, dataDirectory, recorder) = (self.print, self.dataDirectory, self.recorder)
    try? FileManager.default.removeItem(
      at: dataDirectory.appendingPathComponent("qapple-local.json"))
    let store = Store(initialState: TodayQuestionFeature.State()) {
      TodayQuestionFeature()
        .printChanges(
          to: .closure { entry in MainActor.assumeIsolated { print(entry) } }, maxElements: 2
        )
        .record(into: recorder)
    } withDependencies: {
      $0.session = .liveValue
      $0.answerRepository = .live(
        dataDirectory: dataDirectory, userID: { 7 },
        failingLikes: [QappleScenario.failingAnswerID])
    }

    print("— Today's question")
    await store.send(.onAppear).finish()
    checks.expect(
      store.question?.content == "What did you learn from your team today?",
      "today's question is shown")

    print("— Every page of answers")
    await store.send(.seeAnswersButtonTapped).finish()
    guard let screen = store.path.ids.first else {
      checks.expect(false, "the answers screen is pushed")
      return checks.failures
    }
    let answers = AnswersScreen(store: store, id: screen)
    await pageThrough(answers)
    let listed = answers.list()?.answers ?? []
    let mine = await write(answers)
    await like(answers, listed)
    await reportAndDelete(answers, listed, mine: mine)
    return checks.failures
  }

  /// The answers screen pushed on the scenario's store.
  @MainActor private struct AnswersScreen {
    let store: StoreOf<TodayQuestionFeature>
    let id: StackElementID

    func list() -> AnswerListFeature.State? {
      guard case let .answers(list)? = store.path[id: id] else { return nil }
      return list
    }

    func send(_ action: AnswerListFeature.Action) async {
      await store.send(.path(.element(id: id, action: .answers(action)))).finish()
    }
  }

  private func pageThrough(_ screen: AnswersScreen) async {
    await screen.send(.onAppear)
    var pages = 1
    while let last = screen.list()?.answers.last, screen.list()?.hasNext == true {
      await screen.send(.answerAppeared(last.id))
      pages += 1
    }
    let answers = screen.list()?.answers ?? []
    checks.expect(
      answers.count == 31 && Set(answers.ids).count == 31,
      "31 answers over \(pages) pages, none twice")
    checks.expect(screen.list()?.hasNext == false, "loading stops at the last page")
  }

  /// Writes an answer; returns it as listed.
  private func write(_ screen: AnswersScreen) async -> Answer? {
    print("— Write an answer")
    await screen.send(.writeButtonTapped)
    await screen.send(.write(.presented(.submitButtonTapped)))
    let refusal = screen.list()?.write?.errorMessage
    checks.expect(refusal == "Write something before posting.", "an empty answer is refused")
    let text = "Small pull requests are kind to reviewers."
    await screen.send(.write(.presented(.textChanged(text))))
    await screen.send(.write(.presented(.submitButtonTapped)))
    let mine = screen.list()?.answers.first
    let posted = mine?.content == text && mine?.isMine == true
    checks.expect(
      posted && screen.list()?.write == nil, "the answer is posted at the top and the sheet closes")
    return mine
  }

  private func like(_ screen: AnswersScreen, _ answers: IdentifiedArrayOf<Answer>) async {
    print("— Like, and a like that fails")
    let liked = answers[0].id
    let wasLiked = answers[0].isLiked
    await screen.send(.likeButtonTapped(liked))
    checks.expect(screen.list()?.answers[id: liked]?.isLiked == !wasLiked, "a like goes through")
    let failing = QappleScenario.failingAnswerID
    let failingWasLiked = screen.list()?.answers[id: failing]?.isLiked
    await screen.send(.likeButtonTapped(failing))
    let rolledBack = screen.list()?.answers[id: failing]?.isLiked == failingWasLiked
    let explained = screen.list()?.errorMessage == "The like did not go through."
    checks.expect(rolledBack && explained, "a failed like is rolled back and explained")
  }

  private func reportAndDelete(
    _ screen: AnswersScreen, _ answers: IdentifiedArrayOf<Answer>, mine: Answer?
  ) async {
    print("— Report through a dialog, delete through an alert")
    let reported = answers[2].id
    await screen.send(.reportButtonTapped(reported))
    if let report = screen.list()?.dialog?.buttons.first {
      await screen.send(.dialog(.tapped(report)))
    }
    let isReported = screen.list()?.answers[id: reported]?.isReported == true
    checks.expect(isReported && screen.list()?.dialog == nil, "the answer is reported")
    guard let mine else { return }
    await screen.send(.deleteButtonTapped(mine.id))
    if let delete = screen.list()?.alert?.buttons.first {
      await screen.send(.alert(.tapped(delete)))
    }
    let isGone = screen.list()?.answers[id: mine.id] == nil
    checks.expect(isGone && screen.list()?.alert == nil, "my answer is deleted")
  }
}
