// TouchSchool's ranking, ported from TCA (the "touchschool-cleanarea-refactoring" seed): the
// pushed rank screen went stale because it held a copy of the ranking, and the seed patched it
// with a global `pathId` and a hand-rebuilt path element. Here the ranking is `@Shared`.
//
// The regions marked below are copied, character for character, into
// Sources/Cascade/Cascade.docc/MigratingFromTCA.md; ArticleSyncTests fails when they drift.
// The full app is Examples/TouchSchool.

import Cascade
import CascadeTesting
import Testing

// region: touchschool-ranking
private struct SchoolInfo: Equatable, Identifiable, Sendable {
  var seq: String
  var name: String
  var count: Int
  var id: String { seq }
}

/// The root: it listens to the ranking and pushes the rank screen.
private struct MainFeature: Reducer {
  struct State: Equatable {
    var mySchool: SchoolInfo?
    @Shared(.inMemory("schoolInfo")) var schoolInfo: IdentifiedArrayOf<SchoolInfo> = []
    var path = StackState<Path.State>()
  }

  enum Action: Equatable {
    case onAppear
    case openRankView
    case rankDataResponse([SchoolInfo])
    case path(StackActionOf<Path>)
  }

  struct Path: Reducer {
    enum State: Equatable { case rankScene(RankFeature.State) }
    enum Action: Equatable { case rankScene(RankFeature.Action) }

    var body: some Reducer<State, Action> {
      Scope(state: State.rankScene, action: Action.rankScene) { RankFeature() }
    }
  }

  enum CancelID { case rankSnapshots }

  @Dependency(\.firestoreAPI) var firestoreAPI

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .run { [firestoreAPI] send in
          for await schools in firestoreAPI.rankSnapshots() {
            await send(.rankDataResponse(schools))
          }
        }
        .cancellable(id: CancelID.rankSnapshots, cancelInFlight: true)

      case .openRankView:
        // The rank screen gets the same reference, not a copy.
        state.path.append(
          .rankScene(RankFeature.State(mySchool: state.mySchool, schoolInfo: state.$schoolInfo)))
        return .none

      case let .rankDataResponse(schools):
        // Every holder of the reference sees this: no global, no path element rebuilt.
        state.$schoolInfo.withLock { $0 = IdentifiedArray(uniqueElements: schools) }
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Path() }
  }
}

private struct RankFeature: Reducer {
  struct State: Equatable {
    var mySchool: SchoolInfo?
    @Shared var schoolInfo: IdentifiedArrayOf<SchoolInfo>

    /// Derived, so it can never disagree with the ranking it is computed from.
    var mySchoolRank: Int? {
      guard let mine = mySchool.flatMap({ schoolInfo[id: $0.id] }) else { return nil }
      return 1 + schoolInfo.filter { $0.count > mine.count }.count
    }
  }

  enum Action: Equatable { case tabBackButton }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tabBackButton:
      return .run { [dismiss] _ in await dismiss() }
    }
  }
}
// endregion

// region: touchschool-client
/// The ranking as a stream of snapshots, like a Firestore snapshot listener.
private struct FirestoreAPI: Sendable {
  var rankSnapshots: @Sendable () -> AsyncStream<[SchoolInfo]>
}

extension FirestoreAPI: DependencyKey {
  static let liveValue = FirestoreAPI(rankSnapshots: { AsyncStream { $0.finish() } })
  static let testValue = FirestoreAPI(rankSnapshots: {
    reportUnimplemented("FirestoreAPI.rankSnapshots")
    return AsyncStream { $0.finish() }
  })
}

extension DependencyValues {
  fileprivate var firestoreAPI: FirestoreAPI {
    get { self[FirestoreAPI.self] }
    set { self[FirestoreAPI.self] = newValue }
  }
}
// endregion

private let seoulHigh = SchoolInfo(seq: "7130027", name: "Seoul High", count: 12)
private let gyeonggiHigh = SchoolInfo(seq: "7130055", name: "Gyeonggi High", count: 20)

// region: touchschool-test
extension MainFeature.State {
  /// The screen pushed first (id 0), when it is the rank screen: `path[id:]` reads one screen.
  fileprivate var rankScreen: RankFeature.State? {
    guard case let .rankScene(rank)? = path[id: 0] else { return nil }
    return rank
  }
}

@MainActor
@Test func aRankingSnapshotReachesThePushedRankScreen() async {
  let (snapshots, listener) = AsyncStream<[SchoolInfo]>.makeStream()
  let store = TestStore(initialState: MainFeature.State(mySchool: seoulHigh)) {
    MainFeature()
  } withDependencies: {
    $0.firestoreAPI.rankSnapshots = { snapshots }
  }

  await store.send(.onAppear)
  await store.send(.openRankView) {
    $0.path.append(.rankScene(RankFeature.State(mySchool: seoulHigh, schoolInfo: $0.$schoolInfo)))
  }
  #expect(store.state.rankScreen?.mySchoolRank == nil)

  listener.yield([gyeonggiHigh, seoulHigh])
  // The one change is the root's shared ranking, asserted in the step that made it...
  await store.receive(.rankDataResponse([gyeonggiHigh, seoulHigh])) {
    $0.$schoolInfo.withLock { $0 = [gyeonggiHigh, seoulHigh] }
  }
  // ...and the pushed screen, holding the same reference, already shows it.
  #expect(store.state.rankScreen?.$schoolInfo.isSameReference(as: store.state.$schoolInfo) == true)
  #expect(store.state.rankScreen?.mySchoolRank == 2)

  listener.yield([gyeonggiHigh, SchoolInfo(seq: "7130027", name: "Seoul High", count: 21)])
  await store.receive(MainFeature.Action.rankDataResponse) {
    $0.$schoolInfo.withLock { $0[id: seoulHigh.id]?.count = 21 }
  }
  #expect(store.state.rankScreen?.mySchoolRank == 1)

  await store.send(.path(.element(id: 0, action: .rankScene(.tabBackButton))))
  await store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  listener.finish()
  await store.finish()
}
// endregion

@MainActor
@Test func eachTestHasItsOwnRanking() async {
  // The `.inMemory("schoolInfo")` key is per test: the snapshot above never leaks here.
  let store = TestStore(initialState: MainFeature.State()) { MainFeature() }
  #expect(store.state.schoolInfo.isEmpty)
  await store.send(.rankDataResponse([seoulHigh])) {
    $0.$schoolInfo.withLock { $0 = [seoulHigh] }
  }
  await store.finish()
}
