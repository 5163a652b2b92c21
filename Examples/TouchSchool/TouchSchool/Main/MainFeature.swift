import Cascade
import Foundation

/// The main screen and the app's root: the school list to pick my school from, my school's
/// touches and rank, the live ranking, and the navigation stack with the game and rank screens.
///
/// The ranking is shared state: this feature writes each snapshot the ranking client streams
/// into it (``Action/rankingUpdated(_:)``), and the game and rank screens it pushes hold the
/// same reference (`state.$ranking`). A snapshot that arrives while they are on the stack is on
/// them at once: no copy to rebuild, no path element rewritten by hand, no global variable.
///
/// ```swift
/// let store = Store(initialState: MainFeature.State()) { MainFeature() }
/// store.send(.onAppear)                 // loads the schools, starts the ranking stream
/// store.send(.schoolSelected("7130027"))
/// store.send(.playTapped)               // pushes the game
/// ```
public struct MainFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var phase = Phase.idle
    /// Elementary, middle and high schools, merged and sorted by name.
    public var schools: IdentifiedArrayOf<School> = []
    /// What the school picker looks for, in names and addresses.
    public var searchText = ""
    public var mySchool: School?
    /// The ranking as the last snapshot has it (plus batches on their way to the client).
    @Shared public var ranking: Ranking
    /// Why the last batch of touches could not be saved, if it could not.
    public var saveError: String?
    public var path = StackState<Path.State>()

    public enum Phase: Equatable, Sendable {
      case idle
      case loading
      case loaded
      /// The school list could not be loaded: the message shown, with a retry.
      case failed(String)
    }

    /// - Parameter ranking: The shared ranking; a new one by default.
    public init(ranking: Shared<Ranking> = Shared(value: Ranking())) {
      self._ranking = ranking
    }

    /// The schools the picker lists: those whose name or address contains the search text.
    public var visibleSchools: [School] {
      let text = searchText.trimmingCharacters(in: .whitespaces).lowercased()
      guard !text.isEmpty else { return schools.elements }
      return schools.filter {
        $0.name.lowercased().contains(text) || $0.address.lowercased().contains(text)
      }
    }

    /// My school's touches, or `nil` before a school is picked.
    public var myTouches: Int? { mySchool.map { ranking.touches(for: $0.id) } }

    /// My school's rank, or `nil` before a school is picked.
    public var myRank: Int? { mySchool.map { ranking.rank(of: $0.id) } }
  }

  public enum Action: Equatable, Sendable {
    case onAppear
    case onDisappear
    case retryTapped
    case schoolsLoaded(Result<[School], SchoolSearchError>)
    case searchTextChanged(String)
    case schoolSelected(School.ID)
    case rankingUpdated(Ranking)
    case playTapped
    case rankTapped
    case touchesNotSaved(String)
    case path(StackActionOf<Path>)
  }

  /// The screens the stack can hold, written without macros: one `Scope` per case.
  public struct Path: Reducer {
    public enum State: Equatable, Sendable {
      case game(GameFeature.State)
      case rank(RankFeature.State)
    }
    public enum Action: Equatable, Sendable {
      case game(GameFeature.Action)
      case rank(RankFeature.Action)
    }
    let batchInterval: Duration
    public init(batchInterval: Duration = .seconds(1)) { self.batchInterval = batchInterval }
    public var body: some Reducer<State, Action> {
      Scope(state: State.game, action: Action.game) { GameFeature(batchInterval: batchInterval) }
      Scope(state: State.rank, action: Action.rank) { RankFeature() }
    }
  }

  enum CancelID { case rankingStream }

  @Dependency(\.schoolSearch) var schoolSearch
  @Dependency(\.ranking) var ranking
  @Dependency(\.touchSchoolPlantedBug) var plantedBug

  /// The shortest time between two writes of a game's touches.
  public let batchInterval: Duration

  public init(batchInterval: Duration = .seconds(1)) { self.batchInterval = batchInterval }

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        guard state.phase == .idle else { return observeRanking() }
        state.phase = .loading
        return .merge(loadSchools(), observeRanking())

      case .onDisappear:
        // Leaving the app (quit, end of input) saves the taps still waiting in a game's batch.
        let batches = state.path.ids.first.map { popped(from: $0, in: &state) } ?? []
        return .merge(
          [.cancel(id: CancelID.rankingStream)] + batches.map { save($0.count, for: $0.school) })

      case .retryTapped:
        guard case .failed = state.phase else { return .none }
        state.phase = .loading
        return loadSchools()

      case .schoolsLoaded(.success(let schools)):
        state.phase = .loaded
        state.schools = IdentifiedArray(uniqueElements: schools)
        return .none

      case .schoolsLoaded(.failure(let error)):
        state.phase = .failed(error.description)
        return .none

      case .searchTextChanged(let text):
        state.searchText = text
        return .none

      case .schoolSelected(let id):
        guard let school = state.schools[id: id] else {
          reportIssue("MainFeature: no school \(id) in the list; my school is unchanged.")
          return .none
        }
        state.mySchool = school
        return .none

      case .rankingUpdated(let snapshot):
        state.$ranking.withLock { $0 = snapshot }
        return .none

      case .playTapped:
        guard let school = state.mySchool else { return .none }
        state.path.append(.game(GameFeature.State(school: school, ranking: state.$ranking)))
        return .none

      case .rankTapped, .path(.element(_, .game(.delegate(.showRanking)))):
        state.path.append(
          .rank(
            RankFeature.State(
              mySchool: state.mySchool, schools: state.schools, ranking: state.$ranking)))
        return .none

      case .path(.element(_, .game(.delegate(.saveTouches(let school, let count))))):
        return save(count, for: school)

      case .path(.popFrom(let id)):
        // Popped games may still hold taps waiting for their batch: their effects end with
        // them, so the batches are written from here.
        if plantedBug == .popWithoutSavingBatch { return .none }
        return .merge(popped(from: id, in: &state).map { save($0.count, for: $0.school) })

      case .touchesNotSaved(let message):
        state.saveError = message
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Path(batchInterval: batchInterval) }
  }

  private func loadSchools() -> Effect<Action> {
    .run { [schoolSearch] send in
      do {
        async let elementary = schoolSearch.schools(.elementary)
        async let middle = schoolSearch.schools(.middle)
        async let high = schoolSearch.schools(.high)
        let lists = try await [elementary, middle, high]
        await send(.schoolsLoaded(.success(try School.merged(lists))))
      } catch let error as SchoolSearchError {
        await send(.schoolsLoaded(.failure(error)))
      }
    }
  }

  /// The ranking's snapshots, until the main screen goes away (or appears again: the old
  /// stream is replaced).
  private func observeRanking() -> Effect<Action> {
    .run { [ranking] send in
      for await snapshot in ranking.snapshots() { await send(.rankingUpdated(snapshot)) }
    }
    .cancellable(id: CancelID.rankingStream, cancelInFlight: true)
  }

  /// The batches of the games at and above `id` on the stack, taken out of them.
  private func popped(
    from id: StackElementID, in state: inout State
  ) -> [(school: School.ID, count: Int)] {
    guard let start = state.path.ids.firstIndex(of: id) else { return [] }
    var batches: [(school: School.ID, count: Int)] = []
    for elementID in state.path.ids[start...] {
      guard case .game(var game)? = state.path[id: elementID], let count = game.takeBatch()
      else { continue }
      state.path[id: elementID] = .game(game)
      batches.append((game.school.id, count))
    }
    return batches
  }

  private func save(_ count: Int, for school: School.ID) -> Effect<Action> {
    .run { [ranking] _ in
      try await ranking.addTouches(school, count)
    } catch: { error, send in
      await send(.touchesNotSaved("\(count) touches for \(school) could not be saved: \(error)"))
    }
  }
}
