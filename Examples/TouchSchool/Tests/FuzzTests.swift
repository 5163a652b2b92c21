import Cascade
import CascadeExampleSupport
import CascadeExampleTouchSchool
import CascadeTesting
import Foundation
import Testing

/// Random sessions of the whole app through a real store on a test clock, with the real
/// ranking board in memory and simulated rivals playing on the same clock: schools picked,
/// games pushed and popped mid-batch, taps repeated, rank screens, the ranking stream stopped
/// and restarted, stale actions for screens already popped, injected out-of-order snapshots and
/// responses, and every write for one school failing. After every step, ranks must match the
/// ranking, every pushed screen must read the main screen's ranking, and no tap may be lost.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct TouchSchoolFuzzTests {
  static let seeds: [UInt64] = [3, 14, 15, 92]
  /// A fifth under ThreadSanitizer, whose run is several times slower: enough steps to reach
  /// every screen and effect it checks for races; the plain run keeps the whole budget.
  /// `.ci/run` sets `CASCADE_THREAD_SANITIZER=1` for its ThreadSanitizer pass.
  static let stepsPerSeed = underThreadSanitizer ? 500 : 2_500

  @Test func randomSessionsKeepTheRankingSoundAndLoseNoTap() async {
    let coverage = Coverage()
    let result = await Self.fuzzer(coverage: coverage).run(seeds: Self.seeds)
    #expect(result.actionCount == Self.seeds.count * Self.stepsPerSeed || !result.passed)
    #expect(
      !result.passed
        || coverage.deepest >= 4 && coverage.poppedMidBatch >= 50
          && coverage.stale >= 100,
      "depth \(coverage.deepest), \(coverage.poppedMidBatch) mid-batch pops, \(coverage.stale) stale"
    )
  }

  /// The fuzzer above; `plantedBug` runs it on a mutated feature (see ExplorationTests).
  static func fuzzer(
    coverage: Coverage = Coverage(), plantedBug: TouchSchoolPlantedBug = .none
  ) -> Fuzzer<MainFeature.State, MainFeature.Action, World> {
    Fuzzer<MainFeature.State, MainFeature.Action, World>(steps: Self.stepsPerSeed) {
      World.start(plantedBug: plantedBug)
    } action: { state, world, random in
      return Self.randomAction(state, popped: world.popped, using: &random)
    } settle: { _, world in
      await world.settle()
    } allowsWarning: { message in
      // Taps on screens already popped, on a screen of the other kind, for unknown schools.
      ["A stack 'forEach' received", "in another case", "MainFeature: no school"].contains {
        message.contains($0)
      }
    } invariant: { step, world in
      coverage.record(step)
      return world.check(step)
    }
  }

  /// How far the sessions went.
  @MainActor final class Coverage {
    var deepest = 0
    var poppedMidBatch = 0
    var stale = 0

    func record(_ step: FuzzStep<MainFeature.State, MainFeature.Action>) {
      deepest = max(deepest, step.after.path.count)
      guard case .path(let stackAction) = step.action else { return }
      switch stackAction {
      case .element(let id, _) where step.before.path[id: id] == nil: stale += 1
      case .popFrom(let id):
        if step.before.path[id: id] == nil { stale += 1 }
        let pending = step.before.path.compactMap { screen -> Int? in
          if case .game(let game) = screen { game.pendingTouches } else { nil }
        }
        if pending.contains(where: { $0 > 0 }) { poppedMidBatch += 1 }
      default: break
      }
    }
  }
}

/// Counts kept outside the store: taps made on a game on the stack (seen before the reducer
/// runs), and the touches the ranking client wrote or failed to write.
final class TouchLedger: Sendable {
  struct Counts {
    var taps = 0
    var written = 0
    var failed = 0
    var failedWrites = 0
    var notSavedReported = 0
  }
  private let counts = Locked(Counts())
  var now: Counts { counts.withLock { $0 } }

  func update(_ change: (inout Counts) -> Void) { counts.withLock(change) }

  /// Called before the reducer handles `action`.
  func see(_ state: MainFeature.State, _ action: MainFeature.Action) {
    switch action {
    case .path(.element(let id, .game(.touchTapped))):
      if case .game? = state.path[id: id] { update { $0.taps += 1 } }
    case .touchesNotSaved(let message) where !message.hasPrefix("injected"):
      update { $0.notSavedReported += 1 }
    default: break
    }
  }
}

/// One session's world: the clock, the ranking board the rivals play on, the ledger, and the
/// store itself (to settle on).
@MainActor
final class World {
  let clock = TestClock()
  let board = RankingBoard(file: nil)
  let ledger = TouchLedger()
  var store: StoreOf<MainFeature>?
  var injectedSaveErrors = 0
  var popped: [StackElementID] = []

  static func start(
    plantedBug: TouchSchoolPlantedBug = .none
  ) -> FuzzSubject<MainFeature.State, MainFeature.Action, World> {
    let world = World()
    let ledger = world.ledger
    let store = Store(initialState: MainFeature.State()) {
      MainFeature().intercept(before: { state, action in ledger.see(state, action) })
    } withDependencies: {
      $0.continuousClock = world.clock
      $0.schoolSearch = world.schoolSearch()
      $0.ranking = world.rankingClient()
      $0.touchSchoolPlantedBug = plantedBug
    }
    world.store = store
    return FuzzSubject(store: store, context: world)
  }

  /// The four test schools; every other load fails, starting with the first.
  func schoolSearch() -> SchoolSearchClient {
    let loads = Locked(0)
    return SchoolSearchClient { level throws(SchoolSearchError) in
      if level == .middle {
        let count = loads.withLock { count in
          count += 1
          return count
        }
        if count.isMultiple(of: 2) == false { throw .unavailable("the network is down") }
      }
      return allSchools.filter { $0.level == level }
    }
  }

  /// The board's client, with rivals on the test clock; writes for the flaky school fail.
  func rankingClient() -> RankingClient {
    let rivals = RivalPlayers(
      schools: [gangnamHigh.id, daechiMiddle.id], every: .milliseconds(700), clock: clock)
    let live = RankingClient.live(board: board, rivals: rivals)
    let (ledger, flakySchool) = (ledger, jamsilElementary.id)
    return RankingClient(snapshots: live.snapshots) { school, count in
      if school == flakySchool {  // every write of its touches fails
        ledger.update {
          $0.failed += count
          $0.failedWrites += 1
        }
        throw RankingWriteError.invalidCount(-count)
      }
      try await live.addTouches(school, count)
      ledger.update { $0.written += count }
    }
  }

  /// Time moves on a quarter of a second; then the writes and failures on their way land.
  func settle() async {
    await clock.advance(by: .milliseconds(250))
    for _ in 0..<10_000 {
      if isBalanced { break }
      await Task.yield()
    }
  }

  /// Every tap is written, failed (and reported), or waiting in a game's batch.
  var isBalanced: Bool {
    guard let state = store?.state else { return true }
    let counts = ledger.now
    return counts.taps == counts.written + counts.failed + Self.pending(state)
      && counts.failedWrites == counts.notSavedReported
  }

  static func pending(_ state: MainFeature.State) -> Int {
    state.path.reduce(0) { sum, screen in
      if case .game(let game) = screen { sum + game.pendingTouches } else { sum }
    }
  }
}

extension World {
  /// What must hold after every step; `nil` when it all does.
  func check(_ step: FuzzStep<MainFeature.State, MainFeature.Action>) -> String? {
    if case .touchesNotSaved(let message) = step.action, message.hasPrefix("injected") {
      injectedSaveErrors += 1
    }
    let gone = Set(step.before.path.ids).subtracting(step.after.path.ids)
    popped += gone.sorted()
    let state = step.after
    return Self.rankProblem(state) ?? Self.screenProblem(state) ?? ledgerProblem(state)
  }

  /// Every rank shown is one more than the number of schools with strictly more touches.
  static func rankProblem(_ state: MainFeature.State) -> String? {
    let touches = state.ranking.touches
    func expectedRank(_ count: Int, in touches: [School.ID: Int]) -> Int {
      1 + touches.values.count { $0 > count }
    }
    let standings = state.ranking.standings
    for standing in standings where standing.rank != expectedRank(standing.touches, in: touches) {
      return "\(standing.schoolID) ranks \(standing.rank) with \(standing.touches) touches"
    }
    if zip(standings, standings.dropFirst()).contains(where: { $0.touches < $1.touches }) {
      return "the standings are out of order"
    }
    if let school = state.mySchool,
      state.myRank != expectedRank(touches[school.id, default: 0], in: touches)
    {
      return "my rank \(state.myRank ?? 0) does not match my \(state.myTouches ?? 0) touches"
    }
    for case .game(let game) in state.path {
      let mine = touches[game.school.id, default: 0] + game.pendingTouches
      var counted = touches
      counted[game.school.id] = mine
      if game.myTouches != mine || game.myRank != expectedRank(mine, in: counted) {
        return "the game shows rank \(game.myRank) with \(game.myTouches) touches"
      }
    }
    return nil
  }

  /// Pushed screens read the main screen's ranking; the stack holds only what it can show.
  static func screenProblem(_ state: MainFeature.State) -> String? {
    if state.path.ids != state.path.ids.sorted() { return "stack ids out of order" }
    if let school = state.mySchool, state.schools[id: school.id] == nil {
      return "my school \(school.id) is not in the list"
    }
    for screen in state.path {
      switch screen {
      case .game(let game):
        if !game.$ranking.isSameReference(as: state.$ranking) {
          return "a game reads a ranking of its own"
        }
        if state.schools[id: game.school.id] == nil { return "a game for an unknown school" }
      case .rank(let rank):
        if !rank.$ranking.isSameReference(as: state.$ranking) {
          return "a rank screen reads a ranking of its own"
        }
        if rank.rows.map(\.touches) != state.ranking.standings.map(\.touches) {
          return "the rank screen's rows differ from the standings"
        }
      }
    }
    return nil
  }

  /// No tap lost; a failed write is reported, and only then.
  func ledgerProblem(_ state: MainFeature.State) -> String? {
    let counts = ledger.now
    let pending = Self.pending(state)
    if counts.taps != counts.written + counts.failed + pending {
      return
        "\(counts.taps) taps, but \(counts.written) written + \(counts.failed) failed + "
        + "\(pending) pending"
    }
    if counts.failedWrites != counts.notSavedReported {
      return "\(counts.failedWrites) writes failed, \(counts.notSavedReported) reported"
    }
    if (state.saveError != nil) != (counts.failedWrites + injectedSaveErrors > 0) {
      return "save error \(state.saveError ?? "nil") after \(counts.failedWrites) failed writes"
    }
    let saved = board.ranking.touches.values.reduce(0, +)
    if saved < counts.written {
      return "the board holds \(saved) touches, \(counts.written) written"
    }
    return nil
  }
}

extension TouchSchoolFuzzTests {
  static let searches = ["서울", "강남구", "", "zzz", "고등"]

  static func randomAction(
    _ state: MainFeature.State, popped: [StackElementID], using random: inout SeededGenerator
  ) -> MainFeature.Action {
    let ids = state.path.ids
    let anyID = (ids + popped).randomElement(using: &random)
    switch Int.random(in: 0..<24, using: &random) {
    case 0: return .onAppear
    case 1: return .onDisappear
    case 2: return .retryTapped
    case 3: return .schoolsLoaded(.failure(.unavailable("injected: a late failure")))
    case 4: return .schoolsLoaded(.success(allSchools.elements))
    case 5: return .searchTextChanged(searches.randomElement(using: &random)!)
    case 6, 7:
      let id = (allSchools.ids + ["0000000"]).randomElement(using: &random)!
      return .schoolSelected(id)
    case 8, 9: return .playTapped
    case 10: return .rankTapped
    case 11: return .rankingUpdated(randomRanking(using: &random))
    case 12: return .touchesNotSaved("injected: a failure nobody saw")
    case 13...18:
      guard let id = ids.last(where: { state.game($0) != nil }) ?? anyID else { return .playTapped }
      return .path(.element(id: id, action: .game(.touchTapped)))
    case 19:
      guard let id = anyID else { return .rankTapped }
      let action: GameFeature.Action =
        [.backTapped, .rankTapped, .batchIntervalElapsed, .touchTapped].randomElement(
          using: &random)!
      return .path(.element(id: id, action: .game(action)))
    case 20:
      guard let id = anyID else { return .rankTapped }
      let action: RankFeature.Action = Bool.random(using: &random) ? .backTapped : .panelToggled
      return .path(.element(id: id, action: .rank(action)))
    case 21, 22:
      guard let id = anyID else { return .onAppear }
      return .path(.popFrom(id: id))
    default:
      guard let id = popped.randomElement(using: &random) else { return .onAppear }
      return .path(.element(id: id, action: .game(.touchTapped)))
    }
  }

  static func randomRanking(using random: inout SeededGenerator) -> Ranking {
    var touches: [School.ID: Int] = [:]
    for school in allSchools where Bool.random(using: &random) {
      touches[school.id] = Int.random(in: 0...40, using: &random)
    }
    return Ranking(touches: touches)
  }
}

/// Whether this run is the ThreadSanitizer pass of `.ci/run` (`.ci/repeat-tests.sh` too), which
/// says so in the environment: `CASCADE_THREAD_SANITIZER=1 swift test --sanitize=thread`.
private let underThreadSanitizer =
  ProcessInfo.processInfo.environment["CASCADE_THREAD_SANITIZER"] == "1"
