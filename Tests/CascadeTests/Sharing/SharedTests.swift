import CascadeTestSupport
import CascadeTesting
import Foundation
import Observation
import Testing

@testable import Cascade

private struct Settings: Codable, Equatable, Sendable {
  var volume = 0.5
  var name = "player"
}

@MainActor
@Suite(.hangGuard)
struct SharedStateTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  @Test func aParentAndItsPushedChildSeeOneValue() {
    let store = Store(initialState: Scoreboard.State(score: Shared(value: 0))) { Scoreboard() }
    store.send(.openPlayer)
    let id = store.state.path.ids[0]
    store.send(.path(.element(id: id, action: .tapped)))
    store.send(.path(.element(id: id, action: .tapped)))
    #expect(store.state.score == 2)
    #expect(store.state.path[id: id]?.score == 2)
    #expect(store.state.path[id: id]!.$score.isSameReference(as: store.state.$score))
    store.send(.resetTapped)
    #expect(store.state.path[id: id]?.score == 0)
  }

  @Test func aChangeAnEffectMakesIsSeenByParentChildAndObservers() async {
    let store = Store(initialState: Scoreboard.State(score: Shared(value: 0))) { Scoreboard() }
    store.send(.openPlayer)
    let id = store.state.path.ids[0]
    let scores = store.values(of: \.score)
    var iterator = scores.makeAsyncIterator()
    #expect(await withDeadline("the score 0") { await iterator.next(isolation: #isolation) } == 0)
    await store.send(.path(.element(id: id, action: .bonusTapped))).finish()
    #expect(store.state.score == 10)
    #expect(store.state.path[id: id]?.score == 10)
    #expect(store.state.path[id: id]?.bonuses == 1)
    #expect(await withDeadline("the score 10") { await iterator.next(isolation: #isolation) } == 10)
  }

  @Test func aChangeMadeOutsideTheStoreReachesItsObservers() async {
    let score = Shared(value: 1)
    let store = Store(initialState: Scoreboard.State(score: score)) { Scoreboard() }
    var iterator = store.values(of: \.score).makeAsyncIterator()
    #expect(await withDeadline("the score 1") { await iterator.next(isolation: #isolation) } == 1)
    // No action: another task writes the shared value.
    await Task.detached { score.withLock { $0 = 7 } }.value
    #expect(await withDeadline("the score 7") { await iterator.next(isolation: #isolation) } == 7)
    #expect(store.state.score == 7)
  }

  @Test func aForwardedSharedValueChangedOutsideTheStoreReachesTheTarget() async {
    struct Echo: Reducer {
      struct State: Equatable { var seen: [Int] = [] }
      enum Action { case seen(Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        guard case let .seen(value) = action else { return .none }
        state.seen.append(value)
        return .none
      }
    }
    let score = Shared(value: 1)
    let source = Store(initialState: Scoreboard.State(score: score)) { Scoreboard() }
    let target = Store(initialState: Echo.State()) { Echo() }
    source.forward(\.score, to: target, action: Echo.Action.seen)
    await Task.detached { score.withLock { $0 = 5 } }.value
    await pollUntil { !target.state.seen.isEmpty }
    #expect(target.state.seen == [5])
    source.send(.resetTapped)  // through the store: forwarded at the end of the batch
    #expect(target.state.seen == [5, 0])
  }

  @Test func observationTrackingHearsASharedChange() {
    let score = Shared(value: 0)
    let store = Store(initialState: Scoreboard.State(score: score)) { Scoreboard() }
    let fired = Guarded(false)
    withObservationTracking {
      _ = store.state.score
    } onChange: {
      fired.withLock { $0 = true }
    }
    score.withLock { $0 = 3 }
    #expect(fired.withLock { $0 })
  }

  @Test func theStorageWatcherLoadsAFileChangedByAnotherProcess() async throws {
    let folder = TemporaryFolder()
    let url = folder.file("settings.json")
    let storage = SharedStorage.disk(watchInterval: .milliseconds(20))
    let settings = withDependencies {
      $0.sharedStorage = storage
    } operation: {
      Shared(wrappedValue: Settings(), .fileStorage(url))
    }
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try JSONEncoder().encode(Settings(volume: 0.3, name: "other process")).write(to: url)
    await pollUntil { settings.wrappedValue.name == "other process" }
    #expect(settings.wrappedValue.name == "other process")
  }

  @Test func aDerivedFieldReadsAndWritesThroughItsParent() {
    let settings = Shared(value: Settings())
    let volume = settings.volume
    volume.withLock { $0 = 0.9 }
    #expect(settings.wrappedValue.volume == 0.9)
    settings.withLock { $0.volume = 0.1 }
    #expect(volume.wrappedValue == 0.1)
    #expect(volume.isSameReference(as: settings.volume))
    #expect(!volume.isSameReference(as: Shared(value: 0.1)))
  }

  @Test func equalKeysInOneStorageAreOneReference() {
    let storage = SharedStorage.inMemory()
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.inMemory("count")) var first = 1
      @Shared(.inMemory("count")) var second = 99
      #expect(second == 1)  // the second joins the first; its default is not used
      $second.withLock { $0 = 5 }
      #expect(first == 5)
      #expect($first.isSameReference(as: $second))
      @Shared(.inMemory("count")) var otherType = "text"  // same name, other type: other value
      #expect(otherType == "text")
    }
    withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      @Shared(.inMemory("count")) var elsewhere = 1
      #expect(elsewhere == 1)  // another storage, another value
    }
  }

  @Test func aFileSurvivesTheStorageThatWroteIt() throws {
    let folder = TemporaryFolder()
    let url = folder.file("nested/settings.json")
    let first = SharedStorage.disk(watchInterval: nil)
    withDependencies {
      $0.sharedStorage = first
    } operation: {
      @Shared(.fileStorage(url, saveInterval: .seconds(60))) var settings = Settings()
      $settings.withLock { $0.name = "Seoul High" }
      $settings.withLock { $0.volume = 1 }
    }
    // Throttled: nothing written until the interval ends or the storage is flushed.
    #expect(!FileManager.default.fileExists(atPath: url.path))
    first.flush()
    let second = SharedStorage.disk(watchInterval: nil)
    let reloaded = withDependencies {
      $0.sharedStorage = second
    } operation: {
      @Shared(.fileStorage(url)) var settings = Settings()
      return (settings, $settings.loadError)
    }
    #expect(reloaded.0 == Settings(volume: 1, name: "Seoul High"))
    #expect(reloaded.1 == nil)
  }

  @Test func aStoresFileStoredStateOutlivesTheStoreAndItsStorage() throws {
    struct Game: Reducer {
      struct State: Equatable {
        @Shared var best: Int
        init(file: URL) { _best = Shared(wrappedValue: 0, .fileStorage(file)) }
      }
      enum Action { case scored(Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        guard case let .scored(points) = action else { return .none }
        state.$best.withLock { $0 = max($0, points) }
        return .none
      }
    }
    let folder = TemporaryFolder()
    let file = folder.file("best.json")
    // First launch: a store scores, then goes away with its storage.
    do {
      let storage = SharedStorage.disk(watchInterval: nil)
      let store = withDependencies {
        $0.sharedStorage = storage
      } operation: {
        Store(initialState: Game.State(file: file)) { Game() }
      }
      store.send(.scored(7))
      store.send(.scored(3))
      #expect(store.state.best == 7)
      storage.flush()
    }
    // Second launch: fresh storage, fresh store, the value read back from the file.
    let storage = SharedStorage.disk(watchInterval: nil)
    let store = withDependencies {
      $0.sharedStorage = storage
    } operation: {
      Store(initialState: Game.State(file: file)) { Game() }
    }
    #expect(store.state.best == 7)
    #expect(store.state.$best.loadError == nil)
  }

  @Test func pendingSavesAreFlushedTogetherAsAtExit() throws {
    let folder = TemporaryFolder()
    let url = folder.file("count.json")
    let storage = SharedStorage.disk(watchInterval: nil)
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.fileStorage(url, saveInterval: .seconds(60))) var count = 0
      for _ in 0..<100 { $count.withLock { $0 += 1 } }
    }
    // What the exit handler runs.
    SharedStorage.flushAll()
    let data = try Data(contentsOf: url)
    #expect(try JSONDecoder().decode(Int.self, from: data) == 100)
  }

  @Test func aCorruptFileGivesTheDefaultAnErrorAndIsKept() throws {
    let folder = TemporaryFolder()
    let url = folder.file("settings.json")
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data("{\"volume\": tru".utf8).write(to: url)
    let storage = SharedStorage.disk(throttlesSaves: false)
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var settings = Settings()
      #expect(settings == Settings())
      let error = try? #require($settings.loadError as? SharedLoadError)
      #expect(error?.description.contains("settings.json") == true)
      // The first save moves the unreadable file aside instead of overwriting it.
      $settings.withLock { $0.volume = 0.2 }
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names.count == 2)
    let keptName = try #require(names.first { $0.hasPrefix("settings.unreadable-") })
    #expect(try Data(contentsOf: folder.file(keptName)) == Data("{\"volume\": tru".utf8))
    let saved = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
    #expect(saved.volume == 0.2)
  }

  @Test func aMissingFolderOrUnwritableFileIsReportedAndTheValueKept() async throws {
    let folder = TemporaryFolder()
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    // A file where the folder should be: the save cannot create it.
    let blocker = folder.file("blocker")
    try Data().write(to: blocker)
    let url = blocker.appending(path: "settings.json")
    let storage = SharedStorage.disk(throttlesSaves: false)
    let ((), warnings) = await RuntimeWarnings.capturing {
      withDependencies {
        $0.sharedStorage = storage
      } operation: {
        @Shared(.fileStorage(url)) var settings = Settings()
        $settings.withLock { $0.name = "kept" }
        #expect(settings.name == "kept")
      }
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.contains("could not be saved") == true)
    #expect(warnings.first?.fileID == "CascadeTests/SharedTests.swift")
  }

  @Test func twoTasksWritingAtOnceLoseNoUpdate() async throws {
    let storage = SharedStorage.inMemory()
    let url = URL(filePath: "/virtual/count.json")
    let count = withDependencies {
      $0.sharedStorage = storage
    } operation: {
      Shared(wrappedValue: 0, .fileStorage(url))
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          for _ in 0..<5_000 { count.withLock { $0 += 1 } }
        }
      }
    }
    #expect(count.wrappedValue == 10_000)
    // Saves are serialized and each writes the latest value: the file holds the last one.
    let data = try #require(try storage.readFile(at: url))
    #expect(try JSONDecoder().decode(Int.self, from: data) == 10_000)
  }

  @Test func aFileChangedOutsideIsLoadedAgain() throws {
    let storage = SharedStorage.inMemory()
    let url = URL(filePath: "/virtual/settings.json")
    try withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var settings = Settings()
      $settings.withLock { $0.name = "mine" }
      storage.checkForExternalChanges()
      #expect(settings.name == "mine")  // its own save is not an outside change
      try storage.writeFile(JSONEncoder().encode(Settings(volume: 0, name: "theirs")), to: url)
      storage.checkForExternalChanges()
      #expect(settings.name == "theirs")
      try storage.writeFile(Data("garbage".utf8), to: url)
      storage.checkForExternalChanges()
      #expect(settings.name == "theirs")  // kept, with the error shown
      #expect($settings.loadError != nil)
    }
  }

  @Test func readsAndWritesOfManyThreadsAgree() async {
    let shared = Shared(value: [Int]())
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<4 {
        group.addTask {
          for step in 0..<500 {
            shared.withLock { $0.append(task * 1_000 + step) }
            _ = shared.wrappedValue.count
          }
        }
      }
    }
    #expect(shared.wrappedValue.count == 2_000)
    #expect(Set(shared.wrappedValue).count == 2_000)
  }
}

@Suite struct SharedValueTests {
  @Test func aDefaultMadeFromAnotherKeyedValueDoesNotDeadlock() {
    withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      @Shared(.inMemory("base")) var base = 2
      @Shared(.inMemory("derived")) var derived =
        Shared(wrappedValue: 0, .inMemory("base")).wrappedValue * 10
      #expect(derived == 20)
    }
  }

  @Test func codableStatesEncodeTheValueAndDecodeAFreshReference() throws {
    struct State: Codable, Equatable { @Shared var count: Int }
    let original = State(count: Shared(value: 3))
    let data = try JSONEncoder().encode(original)
    #expect(String(decoding: data, as: UTF8.self) == #"{"count":3}"#)
    let decoded = try JSONDecoder().decode(State.self, from: data)
    #expect(decoded == original)
    #expect(!decoded.$count.isSameReference(as: original.$count))
  }
}
