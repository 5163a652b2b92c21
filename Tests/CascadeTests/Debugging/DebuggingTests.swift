import CascadeTesting
import Foundation
import Testing

@testable import Cascade

private struct Tally: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var history: [Int] = []
    var label: String?
  }
  enum Action: Equatable, Codable, Sendable {
    case add(Int)
    case label(String?)
    case noop
    case addLater(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(amount):
      state.count += amount
      state.history.append(state.count)
      return .none
    case let .label(label):
      state.label = label
      return .none
    case .noop:
      return .none
    case let .addLater(amount):
      return .run { send in await send(.add(amount)) }
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct DebuggingTests {
  @Test func printChangesShowsEachActionAndADiff() {
    let lines = Guarded<[String]>([])
    let store = Store(initialState: Tally.State()) {
      Tally().printChanges(to: .closure { entry in lines.withLock { $0.append(entry) } })
    }
    store.send(.add(2))
    store.send(.noop)
    store.send(.label("x"))
    let printed = lines.withLock { $0 }
    #expect(printed.count == 3)
    #expect(
      printed[0] == """
        received action: .add(2)
              Tally.State(
            −   count: 0
            −   history: []
            +   count: 2
            +   history: [
            +     [0]: 2
            +   ]
                label: nil
              )
        """)
    #expect(printed[1] == "received action: .noop\n    (no state changes)")
    #expect(printed[2].contains("−   label: nil") && printed[2].contains(#"+   label: "x""#))
  }

  @Test func printChangesCanWriteALogFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cascade-\(UUID()).log")
    defer { try? FileManager.default.removeItem(at: url) }
    let store = Store(initialState: Tally.State()) { Tally().printChanges(to: .file(url)) }
    store.send(.add(1))
    store.send(.add(1))
    let log = try String(contentsOf: url, encoding: .utf8)
    #expect(log.components(separatedBy: "received action: .add(1)").count == 3)
  }

  @Test func interceptSeesEveryActionBeforeAndAfter() async {
    let seen = Guarded<[String]>([])
    let store = Store(initialState: Tally.State()) {
      Tally().intercept(
        before: { state, action in
          seen.withLock { $0.append("before \(compactDump(action)) at \(state.count)") }
        },
        after: { state, action, _ in
          seen.withLock { $0.append("after \(compactDump(action)) at \(state.count)") }
        })
    }
    await store.send(.addLater(5)).finish()
    #expect(
      seen.withLock { $0 } == [
        "before .addLater(5) at 0", "after .addLater(5) at 0",
        "before .add(5) at 0", "after .add(5) at 5",  // the action the effect sent, too
      ])
  }

  @Test func aRecordingReplaysExactlyAndSavesAsJSON() async throws {
    let recorder = Recorder<Tally.State, Tally.Action>(keepingStates: true)
    let store = Store(initialState: Tally.State()) { Tally().record(into: recorder) }
    store.send(.add(1))
    await store.send(.addLater(10)).finish()
    store.send(.label("done"))
    store.send(.add(-3))
    let recording = recorder.recording
    #expect(recording.actions == [.add(1), .addLater(10), .add(10), .label("done"), .add(-3)])
    #expect(recording.entries.last?.state == store.state)

    let replayed = recording.replay(from: Tally.State()) { Tally() }
    #expect(replayed == store.state)

    let json = try JSONEncoder().encode(recording)
    let decoded = try JSONDecoder().decode(Recording<Tally.State, Tally.Action>.self, from: json)
    #expect(decoded.actions == recording.actions)
    #expect(decoded.replay(from: Tally.State()) { Tally() } == store.state)
  }
}

// MARK: - The mappin case: two independent stores that react to each other, with no UI.

private struct Map: Reducer {
  struct State: Equatable, Sendable {
    var selectedPin: String?
    var highlightedSong: String?
  }
  enum Action: Equatable, Sendable {
    case pinTapped(String)
    case songChosen(String?)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .pinTapped(pin): state.selectedPin = pin
    case let .songChosen(song): state.highlightedSong = song
    }
    return .none
  }
}

private struct MusicSearch: Reducer {
  struct State: Equatable, Sendable {
    var near: String?
    var results: [String] = []
    var chosen: String?
  }
  enum Action: Equatable, Sendable {
    case locationChanged(String?)
    case songTapped(String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .locationChanged(place):
      state.near = place
      state.results = place.map { ["\($0) song 1", "\($0) song 2"] } ?? []
    case let .songTapped(song):
      state.chosen = song
    }
    return .none
  }
}

@MainActor
@Suite struct StoreForwardTests {
  @Test func twoStoresReactToEachOtherWithoutAView() {
    let map = Store(initialState: Map.State()) { Map() }
    let music = Store(initialState: MusicSearch.State()) { MusicSearch() }
    map.forward(\.selectedPin, to: music, action: MusicSearch.Action.locationChanged)
    music.forward(\.chosen, to: map, action: Map.Action.songChosen)

    map.send(.pinTapped("Hongdae"))
    #expect(music.near == "Hongdae")
    #expect(music.results == ["Hongdae song 1", "Hongdae song 2"])
    music.send(.songTapped("Hongdae song 2"))
    #expect(map.highlightedSong == "Hongdae song 2")
    map.send(.pinTapped("Hongdae"))  // unchanged: nothing is forwarded again
    #expect(music.chosen == "Hongdae song 2")
  }

  @Test func theLinkEndsWhenEitherStoreGoesAwayOrItIsCancelled() {
    let map = Store(initialState: Map.State()) { Map() }
    weak var weakMusic: Store<MusicSearch.State, MusicSearch.Action>?
    do {
      let music = Store(initialState: MusicSearch.State()) { MusicSearch() }
      weakMusic = music
      map.forward(\.selectedPin, to: music, action: MusicSearch.Action.locationChanged)
      map.send(.pinTapped("Seongsu"))
      #expect(music.near == "Seongsu")
    }
    #expect(weakMusic == nil)  // the link did not keep the target alive
    map.send(.pinTapped("Itaewon"))  // forwarding to a store that is gone: nothing happens

    let music = Store(initialState: MusicSearch.State()) { MusicSearch() }
    let link = map.forward(\.selectedPin, to: music, action: MusicSearch.Action.locationChanged)
    link.cancel()
    map.send(.pinTapped("Jamsil"))
    #expect(music.near == nil)
    #expect(!link.isActive)

    weak var weakMap: Store<Map.State, Map.Action>?
    do {
      let source = Store(initialState: Map.State()) { Map() }
      weakMap = source
      source.forward(\.selectedPin, to: music, action: MusicSearch.Action.locationChanged)
    }
    #expect(weakMap == nil)  // nor the source
  }
}

@Suite struct RecorderSendabilityTests {
  /// A recorder of `Sendable` state and actions is `Sendable`, checked by the compiler (this
  /// function does not compile for one that is not); many tasks recording at once lose nothing.
  @Test func manyTasksRecordingAtOnceLoseNoEntry() async {
    func requireSendable<T: Sendable>(_ value: T) -> T { value }
    let recorder = requireSendable(Recorder<Int, String>(keepingStates: true))
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for step in 0..<500 { recorder.append("\(task)-\(step)", state: step) }
        }
      }
    }
    let recording = recorder.recording
    #expect(recording.entries.count == 4_000)
    #expect(Set(recording.actions).count == 4_000)
    #expect(recording.entries.allSatisfy { $0.state != nil })
  }
}
