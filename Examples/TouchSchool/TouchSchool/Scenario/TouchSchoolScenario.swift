import Cascade
import CascadeExampleSupport
import Foundation

/// TouchSchool's scripted scenario, offline, with the ranking kept in a real file in
/// `dataDirectory` and rival players touching for other schools all along: load and merge the
/// school lists, pick a school, open the game and tap, see other schools' touches arrive on the
/// game screen, open the rank screen and watch it update, pop mid-batch without losing a
/// touch, leave (the ranking stream and the rivals stop), relaunch and find the ranking kept,
/// then a broken school list that shows an error and recovers on retry.
@MainActor
public final class TouchSchoolScenario {
  /// The school the scenario plays for: 서울고등학교.
  public static let mySchool: School.ID = "7130027"

  private let print: ScenarioPrinter
  private let dataDirectory: URL
  private let batchInterval: Duration
  private let rivalInterval: Duration
  private let checks: ScenarioChecks
  private let writes = Locked<[String]>([])
  private let recorder: Recorder<MainFeature.State, MainFeature.Action>?

  /// - Parameters:
  ///   - batchInterval: How often the game writes its touches.
  ///   - rivalInterval: How often a rival player adds touches.
  ///   - recorder: Records the first launch's session (`--record`).
  public init(
    dataDirectory: URL, batchInterval: Duration = .milliseconds(300),
    rivalInterval: Duration = .milliseconds(40),
    recorder: Recorder<MainFeature.State, MainFeature.Action>? = nil,
    print: @escaping ScenarioPrinter
  ) {
    self.recorder = recorder
    self.dataDirectory = dataDirectory
    self.batchInterval = batchInterval
    self.rivalInterval = rivalInterval
    self.print = print
    self.checks = ScenarioChecks(print: print)
  }

  var rankingFile: URL { dataDirectory.appendingPathComponent("ranking.json") }

  /// Runs the scenario; returns the expectations that failed (none when it passed).
  public func run() async -> [String] {
    try? FileManager.default.removeItem(at: rankingFile)
    let first = Session(file: rankingFile, rivalInterval: rivalInterval, writes: writes)
    let store = launch(first, recorder: recorder)
    guard await start(store) else { return checks.failures }
    await pickSchool(store)
    await playAndWatch(store, rivals: first.rivals)
    await watchTheRankScreen(store)
    await popMidBatch(store, board: first.board)
    await leave(store, first)
    let kept = first.board.ranking
    await relaunch(expecting: kept)
    await brokenSchoolList()
    return checks.failures
  }

  // MARK: Steps

  private func start(_ store: StoreOf<MainFeature>) async -> Bool {
    print("— Launch: the three school lists load and merge; the ranking starts streaming")
    await send(.onAppear, to: store, waits: false)
    await checks.waitUntil("the school lists load", store) { $0.phase == .loaded }
    checks.expect(
      store.schools.count == 36, "12 elementary + 12 middle + 12 high schools are listed")
    let levels = Set(store.schools.map(\.level))
    checks.expect(levels == Set(School.Level.allCases), "the merged list has every level")
    let names = store.schools.map(\.name)
    checks.expect(names == names.sorted(), "the merged list is sorted by name")
    return store.phase == .loaded
  }

  private func pickSchool(_ store: StoreOf<MainFeature>) async {
    print("— Search for 서울고 and pick it")
    await send(.searchTextChanged("서울고"), to: store)
    checks.expect(
      store.visibleSchools.map(\.id) == [Self.mySchool], "searching '서울고' finds 서울고등학교")
    await send(.schoolSelected(Self.mySchool), to: store)
    checks.expect(store.mySchool?.name == "서울고등학교", "my school is 서울고등학교")
    checks.expect(store.myTouches == 0, "my school starts with no touches")
  }

  private func playAndWatch(_ store: StoreOf<MainFeature>, rivals: RivalPlayers) async {
    print("— Open the game and tap five times")
    await send(.playTapped, to: store)
    checks.expect(Self.screens(store.state) == ["game"], "the game is pushed")
    for _ in 0..<5 { await sendToGame(.touchTapped, store) }
    checks.expect(game(store)?.myTouches == 5, "the game counts five taps at once")
    checks.expect(writes.withLock { $0 }.isEmpty, "nothing is written per tap")
    await checks.waitUntil("the batch is written and confirmed by a snapshot", store) {
      guard case .game(let game)? = $0.path.last else { return false }
      return game.pendingTouches == 0 && game.ranking.touches(for: Self.mySchool) == 5
    }
    checks.expect(writes.withLock { $0 } == ["+5 \(Self.mySchool)"], "five taps are one write of 5")
    print("  ⇒ \(Self.describe(store.state))")

    print("— Other schools' touches arrive while the game is on the stack")
    checks.expect(rivals.isPlaying, "rival players are playing")
    let othersBefore = Self.othersTotal(store.ranking)
    await checks.waitUntil("the game screen shows other schools' new touches", store) {
      guard case .game(let game)? = $0.path.last else { return false }
      return Self.othersTotal(game.ranking) > othersBefore + 10
    }
    print("  ⇒ \(Self.describe(store.state))")
  }

  private func watchTheRankScreen(_ store: StoreOf<MainFeature>) async {
    print("— Open the rank screen from the game and watch it update")
    await sendToGame(.rankTapped, store, waits: true)
    checks.expect(
      Self.screens(store.state) == ["game", "rank"], "the rank screen is pushed on the game")
    guard case .rank(let rank)? = store.path.last else { return }
    let rowsBefore = rank.rows
    print("  ⇒ \(Self.describe(store.state))")
    checks.expect(rank.rows.contains { $0.isMine && $0.touches == 5 }, "my school is highlighted")
    await checks.waitUntil("the pushed rank screen updates by itself", store) {
      guard case .rank(let rank)? = $0.path.last else { return false }
      return rank.rows != rowsBefore
    }
    print("  ⇒ \(Self.describe(store.state))")
    await sendToTop(.rank(.panelToggled), store)
    checks.expect(rankScreen(store)?.isPanelShown == true, "the panel opens")
    await sendToTop(.rank(.backTapped), store)
    checks.expect(Self.screens(store.state) == ["game"], "back dismisses the rank screen")
  }

  private func popMidBatch(_ store: StoreOf<MainFeature>, board: RankingBoard) async {
    print("— Tap three more times and leave the game before the batch is due")
    for _ in 0..<3 { await sendToGame(.touchTapped, store) }
    checks.expect(game(store)?.myTouches == 8, "the game shows eight")
    await sendToGame(.backTapped, store, waits: true)
    checks.expect(store.path.isEmpty, "back pops the game")
    checks.expect(
      writes.withLock { $0 } == ["+5 \(Self.mySchool)", "+3 \(Self.mySchool)"],
      "the three waiting taps are written when the game is popped")
    checks.expect(
      board.ranking.touches(for: Self.mySchool) == 8, "no touch is lost: 8 in the ranking")
    await checks.waitUntil("the main screen shows 8 touches", store) { $0.myTouches == 8 }
    print("  ⇒ \(Self.describe(store.state))")
  }

  private func leave(_ store: StoreOf<MainFeature>, _ session: Session) async {
    print("— Leave the main screen: the ranking stream and the rivals stop")
    await send(.onDisappear, to: store)
    let deadline = ContinuousClock.now.advanced(by: .seconds(2))
    while session.board.observerCount > 0 || session.rivals.isPlaying,
      ContinuousClock.now < deadline
    {
      try? await Task.sleep(for: .milliseconds(5))
    }
    checks.expect(session.board.observerCount == 0, "nobody observes the ranking any more")
    checks.expect(!session.rivals.isPlaying, "the rivals stopped playing")
  }

  private func relaunch(expecting kept: Ranking) async {
    print("— Relaunch: the ranking is read back from \(rankingFile.lastPathComponent)")
    let session = Session(file: rankingFile, rivalInterval: rivalInterval, writes: writes)
    checks.expect(session.board.ranking == kept, "the file holds the ranking as it was left")
    let store = launch(session)
    await send(.onAppear, to: store, waits: false)
    await checks.waitUntil("the schools load", store) { $0.phase == .loaded }
    await send(.schoolSelected(Self.mySchool), to: store)
    await checks.waitUntil("my 8 touches are back", store) { $0.myTouches == 8 }
    checks.expect(
      kept.touches.allSatisfy { store.ranking.touches(for: $0.key) >= $0.value },
      "every school kept its touches")
    print("  ⇒ \(Self.describe(store.state))")
    await send(.onDisappear, to: store)
  }

  private func brokenSchoolList() async {
    print("— Launch with a broken middle school list, then retry once it is fixed")
    let folder = dataDirectory.appendingPathComponent("schools", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for level in School.Level.allCases {
      if let shipped = Bundle.module.url(forResource: level.rawValue, withExtension: "json") {
        try? FileManager.default.copyItem(
          at: shipped, to: folder.appendingPathComponent("\(level.rawValue).json"))
      }
    }
    let middle = folder.appendingPathComponent("middle.json")
    let good = try? Data(contentsOf: middle)
    try? Data("{\"dataSearch\": ".utf8).write(to: middle)
    let session = Session(file: nil, rivalInterval: rivalInterval, writes: writes)
    let store = launch(session, schools: folder)
    await send(.onAppear, to: store, waits: false)
    await checks.waitUntil("the error shows", store) {
      if case .failed = $0.phase { true } else { false }
    }
    print("  ⇒ \(Self.describe(store.state))")
    try? good?.write(to: middle)
    await send(.retryTapped, to: store)
    checks.expect(store.schools.count == 36, "retry loads the fixed lists")
    await send(.onDisappear, to: store)
  }

  // MARK: Plumbing

  /// One run of the app: its ranking database, the rivals playing on it, and the client that
  /// records the writes the app makes.
  struct Session {
    let board: RankingBoard
    let rivals: RivalPlayers
    let client: RankingClient

    init(file: URL?, rivalInterval: Duration, writes: Locked<[String]>) {
      board = RankingBoard(file: file)
      rivals = RivalPlayers(schools: RivalPlayers.shippedSchools, every: rivalInterval)
      let live = RankingClient.live(board: board, rivals: rivals)
      client = RankingClient(
        snapshots: live.snapshots,
        addTouches: { school, count in
          writes.withLock { $0.append("+\(count) \(school)") }
          try await live.addTouches(school, count)
        })
    }
  }

  private func launch(
    _ session: Session, schools: URL? = nil,
    recorder: Recorder<MainFeature.State, MainFeature.Action>? = nil
  ) -> StoreOf<MainFeature> {
    Store(initialState: MainFeature.State()) {
      MainFeature(batchInterval: batchInterval).record(into: recorder)
    } withDependencies: {
      $0.ranking = session.client
      $0.schoolSearch = .live(directory: schools)
    }
  }

  /// Sends `action`; with `waits`, waits for the work it started (not for the ranking stream
  /// or a batch's timer, which last longer).
  private func send(
    _ action: MainFeature.Action, to store: StoreOf<MainFeature>, waits: Bool = true
  ) async {
    let task = store.send(action)
    if waits { await task.finish() }
  }

  private func sendToGame(
    _ action: GameFeature.Action, _ store: StoreOf<MainFeature>, waits: Bool = false
  ) async {
    await sendToTop(.game(action), store, waits: waits)
  }

  private func sendToTop(
    _ action: MainFeature.Path.Action, _ store: StoreOf<MainFeature>, waits: Bool = true
  ) async {
    guard let id = store.path.ids.last else {
      checks.expect(false, "a screen is on the stack for \(action)")
      return
    }
    await send(.path(.element(id: id, action: action)), to: store, waits: waits)
  }

  private func game(_ store: StoreOf<MainFeature>) -> GameFeature.State? {
    if case .game(let game)? = store.path.last { game } else { nil }
  }

  private func rankScreen(_ store: StoreOf<MainFeature>) -> RankFeature.State? {
    if case .rank(let rank)? = store.path.last { rank } else { nil }
  }

  static func othersTotal(_ ranking: Ranking) -> Int {
    ranking.touches.filter { $0.key != mySchool }.values.reduce(0, +)
  }
}
