import CascadeTesting
import Synchronization
import Testing

@testable import Cascade

/// Counts the instances alive, so a test can see state, effects and stores let go.
final class Tracked: Sendable, Equatable {
  static let live = Guarded(0)
  init() { Tracked.live.withLock { $0 += 1 } }
  deinit { Tracked.live.withLock { $0 -= 1 } }
  static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs === rhs }
}

/// A screen holding a tracked instance, with an effect that holds one too until cancelled.
private struct Page: Reducer {
  struct State: Equatable, Sendable { var resource = Tracked() }
  enum Action: Equatable, Sendable { case listen, tap }
  let effect: LongEffect
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .listen:
      let held = Tracked()
      return .merge(effect.run(), .run { _ in withExtendedLifetime(held) {} })
    case .tap:
      return .none
    }
  }
}

private struct Book: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Page.State>()
    @PresentationState var sheet: Page.State?
  }
  enum Action: Equatable, Sendable {
    case path(StackAction<Page.State, Page.Action>)
    case sheet(PresentationAction<Page.Action>)
    case push, popAll, present, dismissSheet
  }
  let effect: LongEffect
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push: state.path.append(Page.State())
      case .popAll: state.path.removeAll()
      case .present: state.sheet = Page.State()
      case .dismissSheet: state.sheet = nil
      case .path, .sheet: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Page(effect: effect) }
    .ifLet(\.$sheet, action: Action.sheet) { Page(effect: effect) }
  }
}

/// Everything a store runs is let go when it goes away: screens, their stores and effects.
/// One suite, run serially, because the instance counter is process-wide.

/// A screen with an effect that lives until it is cancelled.
private struct Screen: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case listen }
  let effect: LongEffect
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    effect.run()
  }
}

/// Every shape of effect at once, on the root, on a stack element and on a presented child.
private struct Everything: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Screen.State>()
    @PresentationState var sheet: Screen.State?
    var steps = 0
  }
  enum Action: Equatable, Sendable {
    case start, push, present, step
    case path(StackActionOf<Screen>)
    case sheet(PresentationAction<Screen.Action>)
  }
  let effect: LongEffect
  let clock: TestClock
  let streamEnded: Latch

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        return .merge(
          effect.run(),
          .merge(effect.run(), effect.run()),
          .concatenate(effect.run(), .send(.step)),
          .concatenate(.send(.step), effect.run(), .send(.step)),
          effect.run().debounce(id: "debounce", for: .seconds(1), clock: clock),
          .merge(.send(.step), .send(.step))
            .throttle(id: "throttle", for: .seconds(1), clock: clock, latest: true),
          .run { [streamEnded] _ in
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            continuation.onTermination = { _ in streamEnded.signal() }
            for await _ in stream {}
          })
      case .push:
        state.path.append(Screen.State())
      case .present:
        state.sheet = Screen.State()
      case .step:
        state.steps += 1
      case .path, .sheet:
        break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Screen(effect: effect) }
    .ifLet(\.$sheet, action: Action.sheet) { Screen(effect: effect) }
  }
}

/// What a store keeps alive, and what its release ends.

@MainActor
@Suite(.serialized, .hangGuard)
struct MemoryTests {
  @Test func tenThousandPushPopCyclesLeaveNothingBehind() async {
    let effect = LongEffect()
    let before = Tracked.live.withLock { $0 }
    weak var weakStore: Store<Book.State, Book.Action>?
    weak var weakScreen: Store<Page.State, Page.Action>?
    do {
      let store = Store(initialState: Book.State()) { Book(effect: effect) }
      weakStore = store
      for cycle in 0..<10_000 {
        store.send(.push)
        store.send(.push)
        let screens = store.scope(state: \.path, action: Book.Action.path)
        screens[1].send(.tap)
        if cycle.isMultiple(of: 1_000) {
          screens[0].send(.listen)  // a long effect, cancelled by the pop below
          weakScreen = screens[0]
        }
        store.send(.popAll)
      }
      await effect.started.wait(for: 10)
      await effect.ended.wait(for: 10)
      #expect(store.state.path.isEmpty)
      #expect(weakScreen == nil)  // a popped screen's store is not kept by the cache
    }
    #expect(weakStore == nil)
    await waitForLive(before)
    #expect(Tracked.live.withLock { $0 } == before)
  }

  @Test func tenThousandPresentDismissCyclesLeaveNothingBehind() async {
    let effect = LongEffect()
    let before = Tracked.live.withLock { $0 }
    weak var weakSheet: Store<Page.State, Page.Action>?
    do {
      let store = Store(initialState: Book.State()) { Book(effect: effect) }
      for cycle in 0..<10_000 {
        store.send(.present)
        let sheet = store.scope(state: \.$sheet, action: Book.Action.sheet)
        sheet?.send(.tap)
        if cycle.isMultiple(of: 1_000) {
          sheet?.send(.listen)
          weakSheet = sheet
        }
        store.send(.dismissSheet)
      }
      await effect.ended.wait(for: 10)
      #expect(weakSheet == nil)
    }
    await waitForLive(before)
    #expect(Tracked.live.withLock { $0 } == before)
  }

  @Test func aReleasedStoreReleasesItsScopesAndItsRunningEffects() async {
    let effect = LongEffect()
    let before = Tracked.live.withLock { $0 }
    weak var weakStore: Store<Book.State, Book.Action>?
    weak var weakScreen: Store<Page.State, Page.Action>?
    do {
      let store = Store(initialState: Book.State()) { Book(effect: effect) }
      weakStore = store
      store.send(.push)
      let screen = store.scope(state: \.path, action: Book.Action.path)[0]
      weakScreen = screen
      screen.send(.listen)
      await effect.started.wait(for: 1)
    }
    #expect(weakStore == nil)
    #expect(weakScreen == nil)
    await effect.ended.wait(for: 1)
    await waitForLive(before)
    #expect(Tracked.live.withLock { $0 } == before)
  }

  /// Effects end on other threads: give their captures a bounded time to be released.
  private func waitForLive(_ expected: Int) async {
    await pollUntil { Tracked.live.withLock({ $0 }) == expected }
  }

  @Test func releasingARootStoreCancelsEveryShapeOfEffectItStarted() async {
    let effect = LongEffect()
    let clock = TestClock()
    let streamEnded = Latch()
    let runner: _EffectRunner
    weak var weakStore: Store<Everything.State, Everything.Action>?
    do {
      let store = Store(initialState: Everything.State()) {
        Everything(effect: effect, clock: clock, streamEnded: streamEnded)
      }
      weakStore = store
      runner = store.core.runner
      store.send(.start)
      store.send(.push)
      store.scope(state: \.path, action: Everything.Action.path)[0].send(.listen)
      store.send(.present)
      store.scope(state: \.$sheet, action: Everything.Action.sheet)?.send(.listen)
      // run, merge (2), the two concatenations in flight, the stack element, the sheet.
      await effect.started.wait(for: 7)
      #expect(store.steps == 2)  // one step of the throttle is kept, waiting
      #expect(runner.activeCount > 7)  // also the debounce, the throttle and the stream
    }
    #expect(weakStore == nil)
    await effect.ended.wait(for: 7)
    await streamEnded.wait(for: 1)
    await pollUntil { runner.activeCount == 0 }
    #expect(runner.activeCount == 0)
    #expect(effect.started.count == 7)  // the debounced effect never started
  }

  @Test func aConcatenationInFlightDoesNotKeepTheStoreAlive() async {
    let effect = LongEffect()
    let clock = TestClock()
    weak var weakCore: _CoreBase?
    do {
      let store = Store(initialState: Everything.State()) {
        Everything(effect: effect, clock: clock, streamEnded: Latch())
      }
      weakCore = store.core
      store.send(.start)
      await effect.started.wait(for: 5)
    }
    await pollUntil { weakCore == nil }
    #expect(weakCore == nil)
    guard weakCore == nil else { return }  // else the effects below never end
    await effect.ended.wait(for: 5)
  }

  @Test func aScopedStoreKeepsItsRootAlive() {
    let scoped = Store(initialState: Tapper.State()) { Tapper() }
      .scope(state: \.self, action: { $0 })
      .scope(state: \.self, action: { $0 })
    scoped.send(.increment)
    #expect(scoped.count == 1)
  }

  @Test func anEffectsResponseReachesAStoreScopedTwice() async {
    let store = Store(initialState: Tapper.State()) { Tapper() }
    let scoped = store.scope(state: \.self, action: { $0 }).scope(state: \.self, action: { $0 })
    await scoped.send(.tap).finish()
    #expect(scoped.responded)
  }
}

/// A counter, and a tap whose response comes back through an effect.
private struct Tapper: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var responded = false
  }
  enum Action: Equatable, Sendable { case increment, tap, response }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .tap:
      state.responded = false
      return .run { send in await send(.response) }
    case .response:
      state.responded = true
      return .none
    }
  }
}
