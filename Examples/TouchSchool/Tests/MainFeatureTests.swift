import Cascade
import CascadeExampleTouchSchool
import CascadeTesting
import Foundation
import Testing

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct MainFeatureTests {
  let spy = RankingSpy()

  func makeStore(
    _ state: MainFeature.State = loadedState(),
    schools: SchoolSearchClient = .init { level in allSchools.filter { $0.level == level } }
  ) -> TestStore<MainFeature.State, MainFeature.Action> {
    TestStore(initialState: state) {
      MainFeature()
    } withDependencies: {
      $0.ranking = spy.client
      $0.schoolSearch = schools
      $0.continuousClock = TestClock()
    }
  }

  @Test func launchingMergesTheThreeSchoolListsSortedByName() async {
    let store = makeStore(MainFeature.State())
    await store.send(.onAppear) { $0.phase = .loading }
    await store.receive(
      .schoolsLoaded(.success([gangnamHigh, daechiMiddle, seoulHigh, jamsilElementary]))
    ) {
      $0.phase = .loaded
      $0.schools = [gangnamHigh, daechiMiddle, seoulHigh, jamsilElementary]
    }
    await store.send(.searchTextChanged("서울고")) { $0.searchText = "서울고" }
    #expect(store.state.visibleSchools == [seoulHigh])
    await store.send(.searchTextChanged("강남구")) { $0.searchText = "강남구" }
    #expect(store.state.visibleSchools == [gangnamHigh, daechiMiddle])
    await store.send(.schoolSelected(seoulHigh.id)) { $0.mySchool = seoulHigh }
    #expect(store.state.myTouches == 0)
    #expect(store.state.myRank == 1)
    await store.send(.onDisappear)
    await store.finish()
  }

  @Test func aBrokenSchoolListShowsTheErrorAndRetryRecovers() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "touch-school-main-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func write(_ text: String, _ level: School.Level) throws {
      try Data(text.utf8).write(to: folder.appendingPathComponent("\(level.rawValue).json"))
    }
    try write(directoryJSON([jamsilElementary]), .elementary)
    try write("[{\"seq\": 1}]", .middle)
    try write(directoryJSON([seoulHigh]), .high)

    let store = makeStore(MainFeature.State(), schools: .live(directory: folder))
    await store.send(.onAppear) { $0.phase = .loading }
    await store.receive(.schoolsLoaded(.failure(.malformed("middle.json is not a school list")))) {
      $0.phase = .failed("The school list could not be read: middle.json is not a school list.")
    }
    #expect(store.state.schools.isEmpty)
    try write(directoryJSON([daechiMiddle]), .middle)
    await store.send(.retryTapped) { $0.phase = .loading }
    await store.receive(.schoolsLoaded(.success([daechiMiddle, seoulHigh, jamsilElementary]))) {
      $0.phase = .loaded
      $0.schools = [daechiMiddle, seoulHigh, jamsilElementary]
    }
    await store.send(.retryTapped)  // nothing to retry once loaded
    await store.send(.onDisappear)
    await store.finish()
  }

  @Test func aSnapshotUpdatesThePushedGameAndRankScreensWithNothingWrittenByHand() async {
    let store = makeStore()
    await store.send(.onAppear)
    await spy.waitForObservers()
    await store.send(.playTapped) { $0.path.append(gameScreen($0)) }
    await store.send(.path(.element(id: 0, action: .game(.rankTapped))))
    await store.receive(.path(.element(id: 0, action: .game(.delegate(.showRanking))))) {
      $0.path.append(rankScreen($0))
    }
    #expect(store.state.rank(1)?.rows == [])

    let snapshot = Ranking(touches: [seoulHigh.id: 12, gangnamHigh.id: 20, daechiMiddle.id: 12])
    spy.emit(snapshot)
    // The only change is the main feature's shared ranking, made by the action that brought
    // the snapshot; both pushed screens hold the same reference.
    await store.receive(.rankingUpdated(snapshot)) { $0.$ranking.withLock { $0 = snapshot } }
    let game = store.state.game(0)
    #expect(game?.myTouches == 12)
    #expect(game?.myRank == 2)
    #expect(game?.$ranking.isSameReference(as: store.state.$ranking) == true)
    #expect(
      store.state.rank(1)?.rows == [
        .init(rank: 1, name: "경기고등학교", touches: 20, isMine: false),
        .init(rank: 2, name: "대치중학교", touches: 12, isMine: false),
        .init(rank: 2, name: "서울고등학교", touches: 12, isMine: true),
      ])
    #expect(store.state.rank(1)?.myRank == 2)

    let next = snapshot.adding(9, to: seoulHigh.id)
    spy.emit(next)
    await store.receive(.rankingUpdated(next)) { $0.$ranking.withLock { $0 = next } }
    #expect(store.state.game(0)?.myRank == 1)
    #expect(
      store.state.rank(1)?.rows.first == .init(rank: 1, name: "서울고등학교", touches: 21, isMine: true))
    #expect(store.state.myRank == 1)
    await store.send(.onDisappear)
    await store.finish()
  }

  @Test func theRankingStreamEndsWhenTheMainScreenGoesAway() async {
    let store = makeStore()
    await store.send(.onAppear)
    await spy.waitForObservers()
    #expect(spy.observerCount == 1)
    spy.emit(Ranking(touches: [gangnamHigh.id: 1]))
    await store.receive(.rankingUpdated(Ranking(touches: [gangnamHigh.id: 1]))) {
      $0.$ranking.withLock { $0.touches = [gangnamHigh.id: 1] }
    }
    await store.send(.onDisappear)
    await spy.waitForObservers(0)
    #expect(spy.observerCount == 0)
    spy.emit(Ranking(touches: [gangnamHigh.id: 2]))  // nobody hears it
    await store.finish()
  }

  @Test func appearingAgainReplacesTheStreamInsteadOfAddingOne() async {
    let store = makeStore()
    await store.send(.onAppear)
    await spy.waitForObservers()
    await store.send(.onAppear)
    await spy.waitForObservers()
    #expect(spy.observerCount == 1)
    await store.send(.onDisappear)
    await store.finish()
    #expect(spy.observerCount == 0)
  }

  @Test func releasingTheStoreEndsTheRankingStream() async {
    var store: StoreOf<MainFeature>? = Store(initialState: loadedState()) {
      MainFeature()
    } withDependencies: {
      $0.ranking = spy.client
    }
    store?.send(.onAppear)
    await spy.waitForObservers()
    #expect(spy.observerCount == 1)
    spy.emit(Ranking(touches: [seoulHigh.id: 4]))
    await pollUntil { store?.myTouches == 4 }
    #expect(store?.myTouches == 4)
    store = nil
    await spy.waitForObservers(0)
    #expect(spy.observerCount == 0)
  }

  @Test func pickingAnUnknownSchoolIsReportedAndChangesNothing() async {
    let store = makeStore(loadedState(mySchool: nil))
    await withKnownIssue {
      await store.send(.schoolSelected("0000000"))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("no school 0000000") }
    }
    await store.send(.playTapped)  // no school: no game
    await store.send(.rankTapped) { $0.path.append(rankScreen($0)) }
    #expect(store.state.rank(0)?.myRank == nil)
  }
}
