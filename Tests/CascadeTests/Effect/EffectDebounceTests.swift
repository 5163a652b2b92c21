import CascadeTesting
import Testing

@testable import Cascade

/// A search field that debounces its query, and an editor that debounces its saves.
private struct Search: Reducer {
  struct State: Equatable, Sendable {
    var searches: [String] = []
    var saved: [String] = []
  }
  enum Action: Equatable, Sendable {
    case queryChanged(String)
    case searched(String)
    case textChanged(String)
    case save(String)
    case saved(String)
    case cancelSearch
  }
  enum CancelID { case search, save }
  let clock: TestClock
  var started = Latch()
  var saving = Latch()
  var release = Latch()
  var saveEnded = Latch()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .queryChanged(query):
      return .run { [started] send in
        started.signal()
        await send(.searched(query))
      }
      .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
    case let .searched(query):
      state.searches.append(query)
      return .none
    case let .textChanged(text):
      return .send(.save(text)).debounce(id: CancelID.save, for: .seconds(1), clock: clock)
    case let .save(text):
      return .run { [saving, release, saveEnded] send in
        defer { saveEnded.signal() }
        saving.signal()
        await release.wait(for: 1)
        await send(.saved(text))  // dropped if this effect was cancelled
      }
    case let .saved(text):
      state.saved.append(text)
      return .none
    case .cancelSearch:
      return .cancel(id: CancelID.search)
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct EffectDebounceTests {
  let clock = TestClock()

  @Test func debounceRunsOnlyTheLastEffectAfterAQuietPeriod() async {
    let store = TestStore(initialState: Search.State()) { Search(clock: clock) }
    await store.send(.queryChanged("s"))
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("se"))
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("seo"))
    await clock.advance(by: .milliseconds(299))  // 299 ms of quiet: nothing yet
    await clock.advance(by: .milliseconds(1))
    await store.receive(.searched("seo")) { $0.searches = ["seo"] }
    await clock.run()
    await store.finish()  // "s" and "se" never arrive
  }

  @Test func theDebouncedEffectDoesNotStartBeforeTheQuietPeriodEnds() async {
    let feature = Search(clock: clock)
    let store = Store(initialState: Search.State()) { feature }
    let task = store.send(.queryChanged("s"))
    await clock.advance(by: .milliseconds(299))
    #expect(feature.started.count == 0)
    await clock.advance(by: .milliseconds(1))
    await task.finish()
    #expect(feature.started.count == 1)
    #expect(store.searches == ["s"])
  }

  @Test func aDebouncedSendNeverCancelsTheEffectOfTheActionItDelivered() async {
    let feature = Search(clock: clock)
    let store = Store(initialState: Search.State()) { feature }
    store.send(.textChanged("first"))
    await clock.advance(by: .seconds(1))
    await feature.saving.wait(for: 1)  // `.save("first")` was delivered; its effect runs
    store.send(.textChanged("second"))  // drops nothing: the delivery has happened
    feature.release.signal()
    await feature.saveEnded.wait(for: 1)
    #expect(store.saved == ["first"])
    await clock.advance(by: .seconds(1))
    await feature.saveEnded.wait(for: 2)
    #expect(store.saved == ["first", "second"])
  }

  @Test func theNextDebouncedEffectCancelsTheOneStillRunning() async {
    // The debounced effect itself (here the save run by `.run`) is cancellable by the id, as
    // in TCA: a new one replaces it, even once it has started.
    struct Saver: Reducer {
      struct State: Equatable, Sendable { var saved: [String] = [] }
      enum Action: Equatable, Sendable {
        case textChanged(String)
        case saved(String)
      }
      let clock: TestClock
      let saving: Latch
      let ended: Latch
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .textChanged(text):
          return .run { [saving, ended] send in
            defer { ended.signal() }
            saving.signal()
            let (stream, _) = AsyncStream<Never>.makeStream()
            for await _ in stream {}  // until cancelled
            await send(.saved(text))
          }
          .debounce(id: "save", for: .seconds(1), clock: clock)
        case let .saved(text):
          state.saved.append(text)
          return .none
        }
      }
    }
    let (saving, ended) = (Latch(), Latch())
    let store = Store(initialState: Saver.State()) {
      Saver(clock: clock, saving: saving, ended: ended)
    }
    store.send(.textChanged("first"))
    await clock.advance(by: .seconds(1))
    await saving.wait(for: 1)
    let second = store.send(.textChanged("second"))
    await ended.wait(for: 1)
    #expect(store.saved.isEmpty)
    second.cancel()
    await second.finish()
  }

  @Test func cancellingTheIDDropsAWaitingDebounce() async {
    let store = TestStore(initialState: Search.State()) { Search(clock: clock) }
    await store.send(.queryChanged("s"))
    await store.send(.cancelSearch)
    await clock.run()
    await store.finish()  // `.searched("s")` never arrives
  }

  // A real `Store` and the `TestStore` agree on what a debounce delivers.
  @Test func debouncedSendKeepsTheEffectOfTheActionItDelivered() async {
    await expectStoreAndTestStoreAgree([
      .send(.edit("a")),
      .advance(.seconds(1)),
      .receive(.save("a")),
      .send(.edit("ab")),  // the save of "a" is running: it goes on
      .advance(.seconds(1)),
      .receive(.save("ab")),
      .advance(.seconds(4)),
      .receive(.saved("a")),
      .advance(.seconds(1)),
      .receive(.saved("ab")),
    ])
  }

  @Test func debounceDeliversOnlyTheLastOfQuickEdits() async {
    await expectStoreAndTestStoreAgree([
      .send(.edit("a")),
      .advance(.milliseconds(500)),
      .send(.edit("ab")),
      .advance(.seconds(1)),
      .receive(.save("ab")),
      .advance(.seconds(5)),
      .receive(.saved("ab")),
    ])
  }
}
