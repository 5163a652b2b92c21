import Cascade
import CascadeTesting
import Synchronization
import Testing

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
@MainActor
@Suite(.serialized, .hangGuard)
struct LeakTests {
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
}
