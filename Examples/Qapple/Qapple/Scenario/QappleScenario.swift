import Cascade
import Foundation

/// Qapple's scripted scenario, offline against the shipped data set and a local store in
/// `dataDirectory`: read today's question, scroll through every page of answers, write one,
/// like, report, delete, and see a failed like rolled back.
@MainActor
public final class QappleScenario {
  public typealias Printer = @MainActor @Sendable (String) -> Void

  /// The answer whose likes fail, to show the rollback.
  public static let failingAnswerID = 1123

  private let print: Printer
  private let dataDirectory: URL
  private var failures: [String] = []
  private let recorder: Recorder<TodayQuestionFeature.State, TodayQuestionFeature.Action>?

  /// - Parameter recorder: Records the session (`--record`).
  public init(
    dataDirectory: URL,
    recorder: Recorder<TodayQuestionFeature.State, TodayQuestionFeature.Action>? = nil,
    print: @escaping Printer
  ) {
    self.recorder = recorder
    self.dataDirectory = dataDirectory
    self.print = print
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
    expect(
      store.question?.content == "What did you learn from your team today?",
      "today's question is shown")

    print("— Every page of answers")
    await store.send(.seeAnswersButtonTapped).finish()
    guard let screen = store.path.ids.first else {
      expect(false, "the answers screen is pushed")
      return failures
    }
    func list() -> AnswerListFeature.State? {
      guard case let .answers(list)? = store.path[id: screen] else { return nil }
      return list
    }
    func send(_ action: AnswerListFeature.Action) async {
      await store.send(.path(.element(id: screen, action: .answers(action)))).finish()
    }
    await send(.onAppear)
    var pages = 1
    while let last = list()?.answers.last, list()?.hasNext == true {
      await send(.answerAppeared(last.id))
      pages += 1
    }
    let answers = list()?.answers ?? []
    expect(
      answers.count == 31 && Set(answers.ids).count == 31,
      "31 answers over \(pages) pages, none twice")
    expect(list()?.hasNext == false, "loading stops at the last page")

    print("— Write an answer")
    await send(.writeButtonTapped)
    await send(.write(.presented(.submitButtonTapped)))
    expect(
      list()?.write?.errorMessage == "Write something before posting.", "an empty answer is refused"
    )
    await send(.write(.presented(.textChanged("Small pull requests are kind to reviewers."))))
    await send(.write(.presented(.submitButtonTapped)))
    let mine = list()?.answers.first
    expect(
      mine?.content == "Small pull requests are kind to reviewers." && mine?.isMine == true
        && list()?.write == nil,
      "the answer is posted at the top and the sheet closes")

    print("— Like, and a like that fails")
    let liked = answers[0].id
    let wasLiked = answers[0].isLiked
    await send(.likeButtonTapped(liked))
    expect(list()?.answers[id: liked]?.isLiked == !wasLiked, "a like goes through")
    let failing = QappleScenario.failingAnswerID
    let failingWasLiked = list()?.answers[id: failing]?.isLiked
    await send(.likeButtonTapped(failing))
    expect(
      list()?.answers[id: failing]?.isLiked == failingWasLiked
        && list()?.errorMessage == "The like did not go through.",
      "a failed like is rolled back and explained")

    print("— Report through a dialog, delete through an alert")
    let reported = answers[2].id
    await send(.reportButtonTapped(reported))
    if let report = list()?.dialog?.buttons.first { await send(.dialog(.tapped(report))) }
    expect(
      list()?.answers[id: reported]?.isReported == true && list()?.dialog == nil,
      "the answer is reported")
    if let mine {
      await send(.deleteButtonTapped(mine.id))
      if let delete = list()?.alert?.buttons.first { await send(.alert(.tapped(delete))) }
      expect(list()?.answers[id: mine.id] == nil && list()?.alert == nil, "my answer is deleted")
    }
    return failures
  }

  private func expect(_ condition: Bool, _ description: String) {
    print(condition ? "  ✓ \(description)" : "  ✗ \(description)")
    if !condition { failures.append(description) }
  }
}
