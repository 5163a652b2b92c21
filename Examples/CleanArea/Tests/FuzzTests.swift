import Cascade
import CascadeExampleCleanArea
import CascadeTesting
import Foundation
import Testing

/// Random sessions through a real store: taps on any tab, details opened, closed and popped
/// from any depth, actions for screens already gone, bookmarks toggled from any detail. After
/// every step the app must still be sound.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(10)))
struct CleanAreaFuzzTests {
  /// One session's world: the bookmark file and client, and what the bookmarks should be after
  /// the toggles so far; the screens popped so far, for stale actions.
  struct Session {
    let file: URL
    let bookmarks: BookmarkClient
    let policies: [Policy]
    var expected = Set<Policy.ID>()
    var popped: [StackElementID] = []
  }

  /// How far the sessions went, to check that they went where they should.
  final class Coverage {
    var deepest = 0
    var toggles = 0
    var stale = 0
  }

  static let seeds: [UInt64] = [11, 23, 37, 41, 59]
  /// A fifth under ThreadSanitizer, whose run is several times slower: enough steps to reach
  /// every screen and effect it checks for races; the plain run keeps the whole budget.
  /// `.ci/run` sets `CASCADE_THREAD_SANITIZER=1` for its ThreadSanitizer pass.
  static let stepsPerSeed = underThreadSanitizer ? 400 : 2_000

  @Test func randomSessionsKeepTheStackAndTheBookmarksSound() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clean-area-fuzz-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let policies = try await PolicyClient.live().load()
    let coverage = Coverage()
    let fuzzer = Self.fuzzer(in: folder, policies: policies, coverage: coverage)
    let result = await fuzzer.run(seeds: Self.seeds)
    #expect(result.actionCount == Self.seeds.count * Self.stepsPerSeed || !result.passed)
    // The sessions went where they should: deep stacks, bookmarks, taps on screens already gone.
    #expect(
      !result.passed || coverage.deepest >= 4 && coverage.toggles >= 100 && coverage.stale >= 100,
      "depth \(coverage.deepest), \(coverage.toggles) toggles, \(coverage.stale) stale")
  }

  /// The fuzzer above; `plantedBug` runs it on a mutated feature (see ExplorationTests).
  static func fuzzer(
    in folder: URL, policies: [Policy], coverage: Coverage = Coverage(),
    plantedBug: CleanAreaPlantedBug = .none
  ) -> Fuzzer<StartFeature.State, StartFeature.Action, Session> {
    Fuzzer<StartFeature.State, StartFeature.Action, Session>(steps: Self.stepsPerSeed) {
      await Self.start(in: folder, policies: policies, plantedBug: plantedBug)
    } action: { state, session, random in
      Self.randomAction(state, popped: session.popped, using: &random)
    } settle: { task, _ in
      await task.finish()
    } allowsWarning: {
      Self.isExpected($0)
    } invariant: { step, session in
      Self.record(step, in: &session, coverage: coverage)
      return Self.check(step.after, session: session)
    }
  }

  /// A fresh store on a fresh bookmark file, with the policies loaded.
  static func start(
    in folder: URL, policies: [Policy], plantedBug: CleanAreaPlantedBug = .none
  ) async -> FuzzSubject<
    StartFeature.State, StartFeature.Action, Session
  > {
    let file = folder.appendingPathComponent("\(UUID().uuidString)/bookmarks.json")
    let bookmarks = BookmarkClient.live(file: file)
    let store = Store(initialState: StartFeature.State()) {
      StartFeature()
    } withDependencies: {
      $0.policies = .live()
      $0.bookmarks = bookmarks
      $0.cleanAreaPlantedBug = plantedBug
    }
    await store.send(.onAppear).finish()
    let session = Session(file: file, bookmarks: bookmarks, policies: policies)
    return FuzzSubject(store: store, context: session)
  }

  /// Updates the model with what the step did: a bookmark toggled on a detail that is there,
  /// screens popped.
  static func record(
    _ step: FuzzStep<StartFeature.State, StartFeature.Action>, in session: inout Session,
    coverage: Coverage
  ) {
    if case .path(.element(let id, let action)) = step.action {
      if case .detail(.bookmarkTapped) = action,
        case .detail(let detail)? = step.before.path[id: id]
      {
        if session.expected.remove(detail.policy.id) == nil {
          session.expected.insert(detail.policy.id)
        }
        coverage.toggles += 1
      }
      if step.before.path[id: id] == nil { coverage.stale += 1 }
    }
    let remaining = Set(step.after.path.ids)
    session.popped += step.before.path.ids.filter { !remaining.contains($0) }
    coverage.deepest = max(coverage.deepest, step.after.path.count)
  }

  /// Warnings the fuzzer provokes on purpose: taps on screens already gone, ids nobody lists.
  static func isExpected(_ message: String) -> Bool {
    ["not on the stack", "is not listed in the", "is not related to", "no policy"].contains {
      message.contains($0)
    }
  }

  static func check(_ state: StartFeature.State, session: Session) -> String? {
    let problems = problems(state, session: session)
    return problems.isEmpty ? nil : problems.joined(separator: "; ")
  }

  static func problems(_ state: StartFeature.State, session: Session) -> [String] {
    let (policies, expected) = (session.policies, session.expected)
    let (bookmarks, file) = (session.bookmarks, session.file)
    var problems: [String] = []
    guard case .main? = state.path.first else { return ["the main screen is not at the bottom"] }
    let byID = Dictionary(uniqueKeysWithValues: policies.map { ($0.id, $0) })
    for (position, screen) in state.path.enumerated() {
      switch screen {
      case .main where position > 0:
        problems.append("a second main screen at \(position)")
      case .main:
        break
      case .detail(let detail):
        guard let policy = byID[detail.policy.id] else {
          problems.append("a detail for policy \(detail.policy.id), which does not exist")
          continue
        }
        if detail.related.map(\.id) != policy.relatedIDs {
          problems.append("detail \(policy.id) shows the wrong related policies")
        }
      }
    }
    if state.path.ids != state.path.ids.sorted() { problems.append("stack ids out of order") }
    if bookmarks.current() != expected {
      problems.append("bookmarks \(bookmarks.current().sorted()) ≠ expected \(expected.sorted())")
    }
    let saved = (try? Data(contentsOf: file)).flatMap {
      try? JSONDecoder().decode([Policy.ID].self, from: $0)
    }
    if Set(saved ?? []) != expected {
      problems.append("the saved bookmarks differ from the toggles")
    }
    return problems
  }

  static func randomAction(
    _ state: StartFeature.State, popped: [StackElementID], using random: inout SeededGenerator
  ) -> StartFeature.Action {
    let ids = state.path.ids
    guard let main = ids.first, case .main(let mainState)? = state.path.first else {
      return .onAppear
    }
    let details = ids.dropFirst()
    let anyID = Int.random(in: 0...45, using: &random)  // 0 and 43...45 exist nowhere
    func onDetail(_ action: PolicyDetailFeature.Action) -> StartFeature.Action {
      guard let id = details.randomElement(using: &random) else {
        return .path(.element(id: main, action: .main(.tabSelected(.all))))
      }
      return .path(.element(id: id, action: .detail(action)))
    }
    switch Int.random(in: 0..<12, using: &random) {
    case 0:
      let tab = MainFeature.Tab.allCases.randomElement(using: &random)!
      return .path(.element(id: main, action: .main(.tabSelected(tab))))
    case 1:
      let category = (mainState.categories + ["Nowhere"]).randomElement(using: &random)
      return .path(.element(id: main, action: .main(.categorySelected(category))))
    case 2:
      let text = ["youth", "loan", "housing support", "", "zzz"].randomElement(using: &random)!
      return .path(.element(id: main, action: .main(.searchTextChanged(text))))
    case 3, 4:
      let listed = mainState.visiblePolicies.randomElement(using: &random)?.id ?? anyID
      let id = Bool.random(using: &random) ? listed : anyID
      return .path(.element(id: main, action: .main(.policyTapped(id))))
    case 5:
      guard let id = details.randomElement(using: &random),
        case .detail(let detail)? = state.path[id: id]
      else { return .path(.element(id: main, action: .main(.policyTapped(anyID)))) }
      let related = detail.related.randomElement(using: &random)?.id ?? anyID
      let target = Bool.random(using: &random) ? related : anyID
      return .path(.element(id: id, action: .detail(.relatedTapped(target))))
    case 6, 7: return onDetail(.bookmarkTapped)
    case 8: return onDetail(.backTapped)
    case 9: return onDetail(.homeTapped)
    case 10:
      guard let gone = popped.randomElement(using: &random) else { return .retryTapped }
      let stale: PolicyDetailFeature.Action =
        [.bookmarkTapped, .backTapped, .relatedTapped(1)].randomElement(using: &random)!
      return .path(.element(id: gone, action: .detail(stale)))
    default:
      guard let id = details.randomElement(using: &random) else { return .onAppear }
      return .path(.popFrom(id: id))
    }
  }
}

/// Whether this run is the ThreadSanitizer pass of `.ci/run` (`.ci/repeat-tests.sh` too), which
/// says so in the environment: `CASCADE_THREAD_SANITIZER=1 swift test --sanitize=thread`.
private let underThreadSanitizer =
  ProcessInfo.processInfo.environment["CASCADE_THREAD_SANITIZER"] == "1"
