import Cascade
import CascadeTesting
import CleanArea
import Foundation
import Testing

/// A small seeded generator (SplitMix64), so a failing run can be repeated from its seed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random sessions through a real store: taps on any tab, details opened, closed and popped
/// from any depth, actions for screens already gone, bookmarks toggled from any detail. After
/// every step the app must still be sound.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CleanAreaFuzzTests {
  static let stepsPerSeed = 2_000

  @Test(arguments: [11, 23, 37, 41, 59] as [UInt64])
  func randomSessionsKeepTheStackAndTheBookmarksSound(seed: UInt64) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clean-area-fuzz-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("bookmarks.json")
    let bookmarks = BookmarkClient.live(file: file)
    let policies = try await PolicyClient.live().load()
    let store = Store(initialState: StartFeature.State()) {
      StartFeature()
    } withDependencies: {
      $0.policies = .live()
      $0.bookmarks = bookmarks
    }
    await store.send(.onAppear).finish()
    try #require(store.path.count == 1)

    var random = SeededGenerator(state: seed)
    var expected = Set<Policy.ID>()
    var popped: [StackElementID] = []
    var log: [String] = []
    var (deepest, toggles, stale) = (0, 0, 0)
    for step in 0..<Self.stepsPerSeed {
      let before = Set(store.path.ids)
      let action = Self.randomAction(store.state, popped: popped, using: &random)
      log.append(compactDump(action))
      if case .path(.element(let id, .detail(.bookmarkTapped))) = action,
        case .detail(let detail)? = store.path[id: id]
      {
        if expected.remove(detail.policy.id) == nil { expected.insert(detail.policy.id) }
        toggles += 1
      }
      if case .path(.element(let id, _)) = action, !before.contains(id) { stale += 1 }
      let (_, warnings) = await RuntimeWarnings.capturing {
        await store.send(action).finish()
      }
      popped += before.subtracting(store.path.ids)
      deepest = max(deepest, store.path.count)
      let problems =
        warnings.map(\.message).filter { !Self.isExpected($0) }
        + Self.check(
          store.state, policies: policies, expected: expected, bookmarks: bookmarks, file: file)
      if !problems.isEmpty {
        Issue.record(
          """
          seed \(seed), step \(step): \(problems.joined(separator: "; "))
          last actions: \(log.suffix(15).joined(separator: " → "))
          """)
        return
      }
    }
    // The session went where it should: deep stacks, bookmarks, taps on screens already gone.
    #expect(
      deepest >= 4 && toggles >= 20 && stale >= 20,
      "depth \(deepest), \(toggles) toggles, \(stale) stale")
  }

  /// Warnings the fuzzer provokes on purpose: taps on screens already gone, ids nobody lists.
  static func isExpected(_ message: String) -> Bool {
    ["not on the stack", "is not listed in the", "is not related to", "no policy"].contains {
      message.contains($0)
    }
  }

  static func check(
    _ state: StartFeature.State, policies: [Policy], expected: Set<Policy.ID>,
    bookmarks: BookmarkClient, file: URL
  ) -> [String] {
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
