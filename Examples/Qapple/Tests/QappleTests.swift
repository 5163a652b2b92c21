import Cascade
import CascadeExampleQapple
import CascadeExampleSupport
import CascadeTesting
import Foundation
import Testing

private let question = Question(id: 4, content: "Q?", publishedDate: Date(timeIntervalSince1970: 0))

private func answer(_ id: Int, mine: Bool = false, liked: Bool = false) -> Answer {
  Answer(
    id: id, content: "answer \(id)", authorNickname: "n\(id)",
    publishedDate: Date(timeIntervalSince1970: Double(id)), isMine: mine, isLiked: liked)
}

/// Pages of answers 20...1, `size` at a time, the cursor being the last id served.
private func page(after threshold: String?, size: Int = 10, total: Int = 20) -> AnswerPage {
  let cursor = threshold.flatMap(Int.init) ?? total + 1
  let ids = Array(stride(from: cursor - 1, through: max(cursor - size, 1), by: -1))
  return AnswerPage(
    answers: ids.map { answer($0, mine: $0 == 20) }, unreadable: [],
    threshold: ids.last.map(String.init),
    hasNext: (ids.last ?? 1) > 1, total: total)
}

@Suite struct AnswerMappingTests {
  private func content(_ id: Int, nickname: String = "Otter", writeAt: String)
    -> AnswersOfQuestionDTO.Content
  {
    try! JSONDecoder().decode(
      AnswersOfQuestionDTO.Content.self,
      from: Data(
        """
        {"answerId":\(id),"writerId":3,"profileImage":null,"nickname":"\(nickname)","content":"c",
         "isMine":false,"isReported":false,"isLiked":true,"writeAt":"\(writeAt)"}
        """.utf8))
  }

  @Test func mapsBothDateFormsAndThePlaceholderNickname() throws {
    let json = Data(
      """
      {"total":3,"size":10,"numberOfElements":3,"threshold":"7","hasNext":false,"content":[
        {"answerId":9,"writerId":1,"profileImage":"https://x/p.png","nickname":"Otter","content":"one",
         "isMine":true,"isReported":false,"isLiked":false,"writeAt":"2026-11-22T10:00:00Z"},
        {"answerId":8,"writerId":2,"profileImage":null,"nickname":"알 수 없음","content":"two",
         "isMine":false,"isReported":true,"isLiked":true,"writeAt":"2026-11-22T10:00:00.250Z"},
        {"answerId":7,"writerId":3,"profileImage":null,"nickname":"Maple","content":"three",
         "isMine":false,"isReported":false,"isLiked":false,"writeAt":"yesterday evening"}
      ]}
      """.utf8)
    let page = try JSONDecoder().decode(AnswersOfQuestionDTO.self, from: json).toEntity()
    #expect(page.answers.map(\.id) == [9, 8])
    #expect(page.answers[0].isMine && !page.answers[0].isResignedMember)
    #expect(
      page.answers[1].isResignedMember && page.answers[1].isReported && page.answers[1].isLiked)
    #expect(
      page.answers[1].publishedDate.timeIntervalSince(page.answers[0].publishedDate) == 0.25)
    #expect(
      page.unreadable == [
        AnswerMappingError(answerID: 7, reason: "'yesterday evening' is not a date")
      ])
    #expect(page.threshold == "7" && !page.hasNext && page.total == 3)
  }

  @Test func theShippedDataSetHasUnreadableDatesThatDoNotBreakAPage() async throws {
    let repository = AnswerRepository.live(dataDirectory: nil, userID: { 7 })
    var unreadable = 0
    var threshold: String?
    repeat {
      let page = try await repository.answers(2, threshold, 10)
      unreadable += page.unreadable.count
      threshold = page.threshold
      if !page.hasNext { break }
    } while true
    #expect(unreadable == 1)
  }
}

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct AnswerListTests {
  fileprivate func makeStore(
    _ repository: AnswerRepository,
    state: AnswerListFeature.State = AnswerListFeature.State(question: question)
  ) -> TestStore<AnswerListFeature.State, AnswerListFeature.Action> {
    TestStore(initialState: state) {
      AnswerListFeature()
    } withDependencies: {
      $0.answerRepository = repository
    }
  }

  fileprivate func pager(calls: LockIsolated<[String?]> = LockIsolated([])) -> AnswerRepository {
    var repository = AnswerRepository.testValue
    repository.answers = { (_, threshold, size) async throws(QappleError) -> AnswerPage in
      calls.withValue { $0.append(threshold) }
      return page(after: threshold, size: size)
    }
    return repository
  }

  @Test func loadsTheNextPageNearTheEndAndStopsAtTheLast() async {
    let calls = LockIsolated<[String?]>([])
    let gate = LockIsolated<[CheckedContinuation<Void, Never>]>([])
    var repository = pager(calls: calls)
    repository.answers = { (_, threshold, size) async throws(QappleError) -> AnswerPage in
      calls.withValue { $0.append(threshold) }
      if threshold != nil {  // the second page waits until the test lets it through
        await withCheckedContinuation { continuation in gate.withValue { $0.append(continuation) } }
      }
      return page(after: threshold, size: size)
    }
    let store = makeStore(repository)
    await store.send(.onAppear) { $0.loadingThreshold = .some(nil) }
    await store.receive(AnswerListFeature.Action.pageResponse) {
      $0.loadingThreshold = nil
      $0.answers = IdentifiedArray(uniqueElements: page(after: nil).answers)
      $0.threshold = "11"
      $0.total = 20
    }
    await store.send(.answerAppeared(19))  // far from the end: nothing
    await store.send(.answerAppeared(12)) { $0.loadingThreshold = .some("11") }  // near it
    await store.send(.answerAppeared(11))  // a load is under way: never two at once
    // Bounded: a regression fails the test instead of spinning forever.
    for _ in 0..<100_000 {
      guard gate.value.isEmpty else { break }
      await Task.yield()
    }
    for continuation in gate.value { continuation.resume() }
    await store.receive(AnswerListFeature.Action.pageResponse) {
      $0.loadingThreshold = nil
      $0.answers.append(contentsOf: page(after: "11").answers)
      $0.threshold = "1"
      $0.hasNext = false
    }
    #expect(store.state.answers.ids == Array(stride(from: 20, through: 1, by: -1)))
    await store.send(.answerAppeared(1))  // the last page: no more loads
    await store.finish()
    #expect(calls.value == [nil, "11"])
  }

  @Test func refreshResetsAndAStaleResponseIsIgnored() async {
    let gate = LockIsolated<[CheckedContinuation<Void, Never>]>([])
    var repository = pager()
    repository.answers = { (_, threshold, size) async throws(QappleError) -> AnswerPage in
      if threshold == "11" {  // the second page hangs until released
        await withCheckedContinuation { continuation in gate.withValue { $0.append(continuation) } }
      }
      return page(after: threshold, size: size)
    }
    let store = makeStore(repository)
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.receive(AnswerListFeature.Action.pageResponse)
    await store.send(.answerAppeared(11)) { $0.loadingThreshold = .some("11") }
    await store.send(.refreshPulled) {
      $0.answers = []
      $0.threshold = nil
      $0.loadingThreshold = .some(nil)
    }
    await store.receive(AnswerListFeature.Action.pageResponse) {
      $0.threshold = "11"
      $0.loadingThreshold = nil
    }
    for continuation in gate.value { continuation.resume() }
    await store.finish()
    #expect(store.state.answers.count == 10)  // the stale second page never landed twice
    #expect(Set(store.state.answers.ids).count == 10)
  }

  @Test func aBrokenDataSetIsShownOnTheAnswerList() async {
    let store = makeStore(.live(dataDirectory: nil, userID: { 7 }, dataSetURL: nil))
    await store.send(.onAppear) { $0.loadingThreshold = .some(nil) }
    await store.receive(
      .pageResponse(threshold: nil, .failure(QappleError("The answers could not be loaded.")))
    ) {
      $0.loadingThreshold = nil
      $0.errorMessage = "The answers could not be loaded."
    }
  }

  @Test func aFailedPageIsShown() async {
    var repository = AnswerRepository.testValue
    repository.answers = { (_, _, _) async throws(QappleError) -> AnswerPage in
      throw QappleError("offline")
    }
    let store = makeStore(repository)
    await store.send(.onAppear) { $0.loadingThreshold = .some(nil) }
    await store.receive(.pageResponse(threshold: nil, .failure(QappleError("offline")))) {
      $0.loadingThreshold = nil
      $0.errorMessage = "offline"
    }
  }

  @Test func anOptimisticLikeIsRolledBackWhenItFails() async {
    var repository = AnswerRepository.testValue
    repository.setLiked = { (id, _) async throws(QappleError) in
      if id == 2 { throw QappleError("The like did not go through.") }
    }
    var state = AnswerListFeature.State(question: question)
    state.answers = [answer(1), answer(2, liked: true)]
    let store = makeStore(repository, state: state)
    await store.send(.likeButtonTapped(1)) { $0.answers[id: 1]?.isLiked = true }
    await store.receive(.likeResponse(1, .success(true)))
    await store.send(.likeButtonTapped(2)) { $0.answers[id: 2]?.isLiked = false }  // shown at once
    await store.receive(.likeResponse(2, .failure(QappleError("The like did not go through.")))) {
      $0.answers[id: 2]?.isLiked = true  // rolled back
      $0.errorMessage = "The like did not go through."
    }
  }

  @Test func reportingGoesThroughAConfirmationDialog() async {
    let reported = LockIsolated<[Int]>([])
    var repository = AnswerRepository.testValue
    repository.report = { id async throws(QappleError) in reported.withValue { $0.append(id) } }
    var state = AnswerListFeature.State(question: question)
    state.answers = [answer(1), answer(2)]
    let store = makeStore(repository, state: state)
    let dialog = ConfirmationDialogState<AnswerListFeature.Action.Dialog>(
      titleVisibility: .visible
    ) {
      "Report this answer?"
    } actions: {
      ButtonState(role: .destructive, action: .confirmReport(2)) { "Report" }
      ButtonState(role: .cancel) { "Cancel" }
    } message: {
      "Reported answers are hidden and reviewed by the Qapple team."
    }
    await store.send(.reportButtonTapped(2)) { $0.dialog = dialog }
    await store.send(.dialog(.dismiss)) { $0.dialog = nil }  // cancelled: nothing reported
    await store.send(.reportButtonTapped(2)) { $0.dialog = dialog }
    await store.send(.dialog(.presented(.confirmReport(2)))) { $0.dialog = nil }
    await store.receive(.actionResponse(.success(.reported(2)))) {
      $0.answers[id: 2]?.isReported = true
    }
    #expect(reported.value == [2])
  }

  @Test func onlyMyOwnAnswersCanBeDeletedAndOnlyAfterTheAlert() async {
    var repository = AnswerRepository.testValue
    repository.delete = { _ async throws(QappleError) in }
    var state = AnswerListFeature.State(question: question)
    state.answers = [answer(1), answer(2, mine: true)]
    state.total = 2
    let store = makeStore(repository, state: state)
    await store.send(.deleteButtonTapped(1))  // not mine: nothing
    await store.send(.deleteButtonTapped(2)) {
      $0.alert = AlertState {
        "Delete your answer?"
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion(2)) { "Delete" }
        ButtonState(role: .cancel) { "Cancel" }
      } message: {
        "This cannot be undone."
      }
    }
    await store.send(.alert(.presented(.confirmDeletion(2)))) { $0.alert = nil }
    await store.receive(.actionResponse(.success(.deleted(2)))) {
      $0.answers.remove(id: 2)
      $0.total = 1
    }
  }

  @Test func writingValidatesThenPostsAtTheTop() async {
    var repository = AnswerRepository.testValue
    repository.write = { (_, content) async throws(QappleError) -> Answer in
      Answer(
        id: 99, content: content, authorNickname: "Me",
        publishedDate: Date(timeIntervalSince1970: 0), isMine: true)
    }
    var state = AnswerListFeature.State(question: question)
    state.answers = [answer(1)]
    let store = makeStore(repository, state: state)
    await store.send(.writeButtonTapped) { $0.write = WriteAnswerFeature.State(questionID: 4) }
    await store.send(.write(.presented(.submitButtonTapped))) {
      $0.write?.errorMessage = "Write something before posting."
    }
    let long = String(repeating: "가", count: 301)
    await store.send(.write(.presented(.textChanged(long)))) {
      $0.write?.text = long
      $0.write?.errorMessage = nil
    }
    await store.send(.write(.presented(.submitButtonTapped))) {
      $0.write?.errorMessage = "Answers can be at most 300 characters (this one has 301)."
    }
    await store.send(.write(.presented(.textChanged("  Kind reviews  ")))) {
      $0.write?.text = "  Kind reviews  "
      $0.write?.errorMessage = nil
    }
    await store.send(.write(.presented(.submitButtonTapped))) { $0.write?.isSubmitting = true }
    let posted = Answer(
      id: 99, content: "Kind reviews", authorNickname: "Me",
      publishedDate: Date(timeIntervalSince1970: 0), isMine: true)
    await store.receive(.write(.presented(.writeResponse(.success(posted))))) {
      $0.write?.isSubmitting = false
    }
    await store.receive(.write(.presented(.delegate(.posted(posted))))) {
      $0.answers.insert(posted, at: 0)
      $0.total = 1
      $0.write = nil
    }
  }
}

@Suite struct AnswerRepositoryTests {
  @Test func theLocalStoreKeepsChangesAcrossLaunches() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qapple-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = AnswerRepository.live(dataDirectory: folder, userID: { 7 })
    let written = try await first.write(4, "Hello")
    try await first.setLiked(1124, true)
    try await first.report(1123)
    try await first.delete(1122)
    let second = AnswerRepository.live(dataDirectory: folder, userID: { 7 })  // a new launch
    let page = try await second.answers(4, nil, 10)
    #expect(page.answers.first?.id == written.id && page.answers.first?.isMine == true)
    #expect(page.answers.first { $0.id == 1124 }?.isLiked == true)
    #expect(page.answers.first { $0.id == 1123 }?.isReported == true)
    #expect(!page.answers.contains { $0.id == 1122 })
    #expect(page.total == 31)  // 31 + 1 written - 1 deleted
  }

  @Test func anUnreadableLocalStoreIsKeptAsideAndReportedOnce() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qapple-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let garbage = Data("{\"written\": [".utf8)
    try garbage.write(to: folder.appendingPathComponent("qapple-local.json"))
    let repository = AnswerRepository.live(dataDirectory: folder, userID: { 7 })
    await #expect(throws: QappleError.self) { try await repository.answers(4, nil, 10) }
    let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasPrefix("qapple-local.unreadable-") }
    #expect(kept.count == 1)
    #expect(try Data(contentsOf: folder.appendingPathComponent(kept[0])) == garbage)
    // Reported once: the app goes on without the saved changes, and saves new ones.
    let page = try await repository.answers(4, nil, 10)
    #expect(page.total == 31)
    try await repository.setLiked(1124, true)
    #expect(try Data(contentsOf: folder.appendingPathComponent(kept[0])) == garbage)
    let reopened = AnswerRepository.live(dataDirectory: folder, userID: { 7 })
    #expect(try await reopened.answers(4, nil, 10).answers.first { $0.id == 1124 }?.isLiked == true)
  }

  @Test func anUnreadableLocalStoreThatCannotBeMovedIsNeitherClaimedKeptNorOverwritten()
    async throws
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qapple-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("qapple-local.json")
    let garbage = Data("{\"written\": [".utf8)
    try garbage.write(to: file)
    let repository = AnswerRepository.live(
      dataDirectory: folder, userID: { 7 },
      moveAside: { _ in .failure(FileRescue.Failure(reason: "Read-only file system")) })
    do {
      _ = try await repository.answers(4, nil, 10)
      Issue.record("the unreadable store was not reported")
    } catch {
      #expect(!error.message.contains("kept in"))
      #expect(error.message.contains("could not be moved aside (Read-only file system)"))
    }
    try await repository.setLiked(1124, true)
    #expect(
      try await repository.answers(4, nil, 10).answers.first { $0.id == 1124 }?.isLiked == true)
    #expect(try Data(contentsOf: file) == garbage)
  }

  @Test func aSecondUnreadableLocalStoreKeepsTheFirstOnesRescuedCopy() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qapple-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for text in ["first", "second"] {
      try Data(text.utf8).write(to: folder.appendingPathComponent("qapple-local.json"))
      let repository = AnswerRepository.live(dataDirectory: folder, userID: { 7 })
      await #expect(throws: QappleError.self) { try await repository.answers(4, nil, 10) }
    }
    let first = folder.appendingPathComponent("qapple-local.unreadable-1.json")
    let second = folder.appendingPathComponent("qapple-local.unreadable-2.json")
    #expect(try Data(contentsOf: first) == Data("first".utf8))
    #expect(try Data(contentsOf: second) == Data("second".utf8))
  }

  @Test func aMissingOrMalformedDataSetFailsEveryRequestWithAMessage() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("qapple-\(UUID())")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data("{\"questions\": 3}".utf8).write(to: file)
    for url in [nil, file, file.appendingPathExtension("missing")] {
      let repository = AnswerRepository.live(dataDirectory: nil, userID: { 7 }, dataSetURL: url)
      do {
        _ = try await repository.answers(4, nil, 10)
        Issue.record("a bad data set served a page")
      } catch {
        #expect(error == QappleError("The answers could not be loaded."))
      }
      await #expect(throws: QappleError.self) { try await repository.todayQuestion() }
    }
  }

  @MainActor
  @Test func theScriptedScenarioPasses() async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qapple-\(UUID())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let failures = await QappleScenario(dataDirectory: folder, print: { _ in }).run()
    #expect(failures.isEmpty)
  }
}

/// A recorded Qapple session replays, through the reducers alone, to the exact state it ended
/// in: every network result is in a recorded action.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct QappleRecordingTests {
  @Test func aRecordedSessionReplaysToTheSameStateWithoutRunningEffects() async throws {
    reportRuntimeWarningsAsTestFailures()  // a reducer reading an unset dependency would fail
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qapple-recording-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let failing = QappleScenario.failingAnswerID
    let recorder = Recorder<TodayQuestionFeature.State, TodayQuestionFeature.Action>(
      keepingStates: true)
    let store = Store(initialState: TodayQuestionFeature.State()) {
      TodayQuestionFeature().record(into: recorder)
    } withDependencies: {
      $0.session = .liveValue
      $0.answerRepository = .live(dataDirectory: folder, userID: { 7 }, failingLikes: [failing])
    }
    await store.send(.onAppear).finish()
    await store.send(.seeAnswersButtonTapped).finish()
    let screen = try #require(store.path.ids.first)
    func list() -> AnswerListFeature.State? {
      guard case .answers(let list)? = store.path[id: screen] else { return nil }
      return list
    }
    func send(_ action: AnswerListFeature.Action) async {
      await store.send(.path(.element(id: screen, action: .answers(action)))).finish()
    }
    await send(.onAppear)
    while let last = list()?.answers.last, list()?.hasNext == true {
      await send(.answerAppeared(last.id))
    }
    await send(.writeButtonTapped)
    await send(.write(.presented(.textChanged("Replayable."))))
    await send(.write(.presented(.submitButtonTapped)))
    let other = try #require(list()?.answers.first { $0.id != failing && !$0.isMine })
    await send(.likeButtonTapped(other.id))
    await send(.likeButtonTapped(failing))  // fails: rolled back by its response
    #expect(list()?.answers.first?.content == "Replayable.")
    #expect(list()?.answers.count == 32)

    let recording = recorder.recording
    #expect(recording.actions.count > 10)
    let replayed = recording.replay(from: TodayQuestionFeature.State()) { TodayQuestionFeature() }
    #expect(replayed == store.state)
    // Every prefix replays to the state the session had at that point.
    for count in stride(from: 1, to: recording.entries.count, by: 5) {
      var prefix = recording
      prefix.entries.removeLast(recording.entries.count - count)
      let state = prefix.replay(from: TodayQuestionFeature.State()) { TodayQuestionFeature() }
      #expect(state == recording.entries[count - 1].state)
    }
  }
}
