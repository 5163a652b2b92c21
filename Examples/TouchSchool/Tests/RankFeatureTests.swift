import Cascade
import CascadeExampleTouchSchool
import CascadeTesting
import Testing

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct RankFeatureTests {
  @Test func thePanelTogglesAndBackDismissesTheRankScreen() async {
    var state = loadedState()
    state.path.append(rankScreen(state))
    let store = TestStore(initialState: state) { MainFeature() }
    await store.send(.path(.element(id: 0, action: .rank(.panelToggled)))) {
      $0.path[id: 0] = .rank(
        RankFeature.State(
          mySchool: seoulHigh, schools: allSchools, ranking: $0.$ranking, isPanelShown: true))
    }
    await store.send(.path(.element(id: 0, action: .rank(.backTapped))))
    await store.receive(.path(.popFrom(id: 0))) { $0.path.pop(from: 0) }
    await store.finish()
  }

  @Test func rowsShowTiesAndHighlightMySchoolEvenWithoutTouches() {
    let ranking = Shared(
      value: Ranking(touches: [gangnamHigh.id: 8, daechiMiddle.id: 8, "7000000": 2]))
    let state = RankFeature.State(mySchool: seoulHigh, schools: allSchools, ranking: ranking)
    #expect(
      state.rows == [
        .init(rank: 1, name: "대치중학교", touches: 8, isMine: false),
        .init(rank: 1, name: "경기고등학교", touches: 8, isMine: false),
        .init(rank: 3, name: "7000000", touches: 2, isMine: false),
      ])
    #expect(state.myRank == 4)
    ranking.withLock { $0.touches[seoulHigh.id] = 8 }
    #expect(state.rows.map(\.rank) == [1, 1, 1, 4])
    #expect(state.rows.filter(\.isMine).map(\.name) == ["서울고등학교"])
    #expect(state.myRank == 1)
  }
}
