import Cascade
import CascadeExampleSupport
import CascadeExampleTouchSchool
import CascadeTesting
import Foundation

let seoulHigh = School(
  id: "7130027", name: "서울고등학교", address: "서울특별시 서초구 서초동", level: .high)
let daechiMiddle = School(
  id: "7091027", name: "대치중학교", address: "서울특별시 강남구 대치동", level: .middle)
let jamsilElementary = School(
  id: "7010055", name: "서울잠실초등학교", address: "서울특별시 송파구 잠실동", level: .elementary)
let gangnamHigh = School(
  id: "7130055", name: "경기고등학교", address: "서울특별시 강남구 삼성동", level: .high)
let allSchools: IdentifiedArrayOf<School> = [
  gangnamHigh, daechiMiddle, jamsilElementary, seoulHigh,
]

/// One write the app made to the ranking.
struct Write: Equatable {
  let school: School.ID
  let count: Int
}

/// A ranking client the test drives: it sends the snapshots the test emits, records writes,
/// and counts its observers, to see the stream end.
final class RankingSpy: Sendable {
  let writes = Locked<[Write]>([])
  let failure = Locked<(any Error)?>(nil)
  private let observers = Locked<[UUID: AsyncStream<Ranking>.Continuation]>([:])

  var observerCount: Int { observers.withLock { $0.count } }
  var recordedWrites: [Write] { writes.withLock { $0 } }

  var client: RankingClient {
    RankingClient(
      snapshots: {
        let (stream, continuation) = AsyncStream<Ranking>.makeStream()
        let key = UUID()
        continuation.onTermination = { _ in
          _ = self.observers.withLock { $0.removeValue(forKey: key) }
        }
        self.observers.withLock { $0[key] = continuation }
        return stream
      },
      addTouches: { school, count in
        if let error = self.failure.withLock({ $0 }) { throw error }
        self.writes.withLock { $0.append(Write(school: school, count: count)) }
      })
  }

  /// Sends `ranking` to every observer, as a database listener would.
  func emit(_ ranking: Ranking) {
    for observer in observers.withLock({ Array($0.values) }) { observer.yield(ranking) }
  }

  /// Waits until `count` observers listen.
  func waitForObservers(_ count: Int = 1, isolation: isolated (any Actor)? = #isolation) async {
    await pollUntil { observerCount == count }
  }
}

/// The main screen with the schools loaded and my school picked.
func loadedState(mySchool: School? = seoulHigh) -> MainFeature.State {
  var state = MainFeature.State()
  state.phase = .loaded
  state.schools = allSchools
  state.mySchool = mySchool
  return state
}

func gameScreen(_ state: MainFeature.State, pending: Int = 0) -> MainFeature.Path.State {
  .game(GameFeature.State(school: seoulHigh, ranking: state.$ranking, pendingTouches: pending))
}

func rankScreen(_ state: MainFeature.State) -> MainFeature.Path.State {
  .rank(
    RankFeature.State(mySchool: state.mySchool, schools: state.schools, ranking: state.$ranking))
}

extension MainFeature.State {
  /// The game screen with `id`, if that is what it is.
  func game(_ id: StackElementID) -> GameFeature.State? {
    if case .game(let game)? = path[id: id] { game } else { nil }
  }

  /// The rank screen with `id`, if that is what it is.
  func rank(_ id: StackElementID) -> RankFeature.State? {
    if case .rank(let rank)? = path[id: id] { rank } else { nil }
  }

  /// Changes the game screen with `id`.
  mutating func updateGame(_ id: StackElementID, _ change: (inout GameFeature.State) -> Void) {
    guard case .game(var game)? = path[id: id] else { return }
    change(&game)
    path[id: id] = .game(game)
  }
}
