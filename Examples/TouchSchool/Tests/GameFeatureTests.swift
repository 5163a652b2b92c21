import Cascade
import CascadeExampleTouchSchool
import CascadeTesting
import Testing

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct GameFeatureTests {
  let spy = RankingSpy()
  let clock = TestClock()

  /// The main screen with the game pushed (#0).
  func makeStore(
    configure: (inout MainFeature.State) -> Void = { _ in }
  ) -> TestStore<MainFeature.State, MainFeature.Action> {
    var state = loadedState()
    state.path.append(gameScreen(state))
    configure(&state)
    return TestStore(initialState: state) {
      MainFeature()
    } withDependencies: {
      $0.ranking = spy.client
      $0.continuousClock = clock
    }
  }

  func tap(_ store: TestStore<MainFeature.State, MainFeature.Action>, pendingAfter: Int) async {
    await store.send(.path(.element(id: 0, action: .game(.touchTapped)))) {
      $0.updateGame(0) { $0.pendingTouches = pendingAfter }
    }
  }

  @Test func tapsAreWrittenInOneBatchPerInterval() async {
    let store = makeStore()
    for count in 1...3 { await tap(store, pendingAfter: count) }
    #expect(store.state.game(0)?.myTouches == 3)
    await clock.advance(by: .milliseconds(999))
    #expect(spy.recordedWrites.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.path(.element(id: 0, action: .game(.batchIntervalElapsed)))) {
      $0.updateGame(0) { $0.pendingTouches = 0 }
      $0.$ranking.withLock { $0.touches[seoulHigh.id] = 3 }
    }
    await store.receive(
      .path(.element(id: 0, action: .game(.delegate(.saveTouches(seoulHigh.id, 3))))))
    // The next taps start the next batch.
    for count in 1...2 { await tap(store, pendingAfter: count) }
    #expect(store.state.game(0)?.myTouches == 5)
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .game(.batchIntervalElapsed)))) {
      $0.updateGame(0) { $0.pendingTouches = 0 }
      $0.$ranking.withLock { $0.touches[seoulHigh.id] = 5 }
    }
    await store.receive(
      .path(.element(id: 0, action: .game(.delegate(.saveTouches(seoulHigh.id, 2))))))
    await store.finish()
    #expect(
      spy.recordedWrites == [
        Write(school: seoulHigh.id, count: 3), Write(school: seoulHigh.id, count: 2),
      ])
  }

  @Test func poppingTheGameMidBatchWritesTheWaitingTouchesOnce() async {
    let store = makeStore()
    for count in 1...7 { await tap(store, pendingAfter: count) }
    await clock.advance(by: .milliseconds(900))
    await store.send(.path(.element(id: 0, action: .game(.backTapped))))
    await store.receive(.path(.popFrom(id: 0))) {
      $0.path.pop(from: 0)
      $0.$ranking.withLock { $0.touches[seoulHigh.id] = 7 }
    }
    #expect(clock.sleeperCount == 0)  // the batch's timer ended with the screen
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(spy.recordedWrites == [Write(school: seoulHigh.id, count: 7)])
    #expect(store.state.myTouches == 7)
  }

  @Test func leavingTheAppMidBatchWritesTheWaitingTouches() async {
    let store = makeStore()
    for count in 1...5 { await tap(store, pendingAfter: count) }
    // `quit` or the end of input: the app disappears with the game still open.
    await store.send(.onDisappear) {
      $0.updateGame(0) { $0.pendingTouches = 0 }
      $0.$ranking.withLock { $0.touches[seoulHigh.id] = 5 }
    }
    // The batch's timer finds nothing left to write.
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .game(.batchIntervalElapsed))))
    await store.finish()
    #expect(spy.recordedWrites == [Write(school: seoulHigh.id, count: 5)])
  }

  @Test func poppingTheGameUnderTheRankScreenWritesItsTouchesToo() async {
    let store = makeStore { $0.path.append(rankScreen($0)) }
    for count in 1...4 { await tap(store, pendingAfter: count) }
    // The rank screen reads the shared ranking: the game's batch is not in it yet.
    #expect(store.state.rank(1)?.rows == [])
    await store.send(.path(.popFrom(id: 0))) {
      $0.path.pop(from: 0)
      $0.$ranking.withLock { $0.touches[seoulHigh.id] = 4 }
    }
    await store.finish()
    #expect(spy.recordedWrites == [Write(school: seoulHigh.id, count: 4)])
  }

  @Test func myCountAndRankCountTheWaitingBatchAndFollowSnapshots() async {
    let store = makeStore()
    await store.send(.onAppear)
    await spy.waitForObservers()
    let snapshot = Ranking(touches: [gangnamHigh.id: 5, daechiMiddle.id: 3])
    spy.emit(snapshot)
    await store.receive(.rankingUpdated(snapshot)) { $0.$ranking.withLock { $0 = snapshot } }
    #expect(store.state.game(0)?.myRank == 3)
    for count in 1...4 { await tap(store, pendingAfter: count) }
    #expect(store.state.game(0)?.myTouches == 4)
    #expect(store.state.game(0)?.myRank == 2)
    // Another school's touches arrive mid-batch: the count keeps the waiting taps.
    let moved = snapshot.adding(2, to: daechiMiddle.id)
    spy.emit(moved)
    await store.receive(.rankingUpdated(moved)) { $0.$ranking.withLock { $0 = moved } }
    #expect(store.state.game(0)?.myTouches == 4)
    #expect(store.state.game(0)?.myRank == 3)
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .game(.batchIntervalElapsed)))) {
      $0.updateGame(0) { $0.pendingTouches = 0 }
      $0.$ranking.withLock { $0.touches[seoulHigh.id] = 4 }
    }
    await store.receive(
      .path(.element(id: 0, action: .game(.delegate(.saveTouches(seoulHigh.id, 4))))))
    #expect(store.state.game(0)?.myTouches == 4)
    await store.send(.onDisappear)
    await store.finish()
  }

  @Test func aFailedWriteIsShown() async {
    spy.failure.withLock { $0 = RankingWriteError.invalidCount(0) }
    let store = makeStore()
    await tap(store, pendingAfter: 1)
    await store.send(.path(.popFrom(id: 0))) {
      $0.path.pop(from: 0)
      $0.$ranking.withLock { $0.touches[seoulHigh.id] = 1 }
    }
    await store.receive(
      .touchesNotSaved(
        "1 touches for 7130027 could not be saved: a batch must add at least one touch, not 0")
    ) {
      $0.saveError =
        "1 touches for 7130027 could not be saved: a batch must add at least one touch, not 0"
    }
    await store.finish()
  }
}
