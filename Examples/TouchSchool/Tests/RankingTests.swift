import CascadeExampleTouchSchool
import Testing

struct RankingTests {
  @Test func tiesShareARankAndTheNextRankSkips() {
    let ranking = Ranking(touches: ["A": 30, "C": 20, "B": 20, "D": 5])
    #expect(
      ranking.standings == [
        .init(schoolID: "A", touches: 30, rank: 1),
        .init(schoolID: "B", touches: 20, rank: 2),
        .init(schoolID: "C", touches: 20, rank: 2),
        .init(schoolID: "D", touches: 5, rank: 4),
      ])
    #expect(["A", "B", "C", "D"].map(ranking.rank(of:)) == [1, 2, 2, 4])
  }

  @Test func aSchoolWithoutTouchesRanksAfterEveryoneWithSome() {
    let ranking = Ranking(touches: ["A": 3, "B": 3, "Z": 0])
    #expect(ranking.rank(of: "E") == 3)
    #expect(ranking.rank(of: "Z") == 3)
    #expect(ranking.standings.map(\.schoolID) == ["A", "B"])
    #expect(Ranking().rank(of: "E") == 1)
  }

  @Test func ranksAreRecomputedAsTouchesArrive() {
    var ranking = Ranking(touches: ["A": 10, "B": 8, "C": 8])
    #expect(ranking.rank(of: "C") == 2)
    ranking = ranking.adding(2, to: "C")
    #expect(ranking.standings.map(\.rank) == [1, 1, 3])
    #expect(ranking.rank(of: "B") == 3)
    ranking = ranking.adding(1, to: "C")
    #expect(ranking.standings.map(\.schoolID) == ["C", "A", "B"])
    #expect(ranking.standings.map(\.rank) == [1, 2, 3])
  }
}
