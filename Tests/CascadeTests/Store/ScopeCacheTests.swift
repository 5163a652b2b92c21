import Testing

@testable import Cascade

// Parity with TCA's ScopeCacheTests: 3 behaviours ported (cached optional and collection
// scopes; the cached optional scope for a presentation, scoped from a store of the whole state,
// is in RecursiveFeatureTests), 3 deliberately different: TCA's "uncached store" warnings are about its
// deprecated closure scopes, which Cascade does not have.

private typealias Counter = IdentifiedCounter

private struct Feature: Reducer {
  struct State: Equatable, Sendable {
    var counter = Counter.State()
    var optional: Counter.State? = Counter.State()
    var rows: IdentifiedArrayOf<Counter.State> = [Counter.State(id: 1)]
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case first(Counter.Action)
    case second(Counter.Action)
    case optional(Counter.Action)
    case rows(IdentifiedActionOf<Counter>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .first: state.log.append("first")
      case .second: state.log.append("second")
      case .optional, .rows: break
      }
      return .none
    }
    .ifLet(\.optional, action: Action.optional) { Counter() }
    .forEach(\.rows, action: Action.rows) { Counter() }
  }
}

@MainActor
@Suite struct ScopeCacheTests {
  // Issue 20, point 8.
  @Test func twoActionCasesOverOneStateGetStoresOfTheirOwn() {
    let store = Store(initialState: Feature.State()) { Feature() }
    let first = store.scope(state: \.counter, action: Feature.Action.first)
    let second = store.scope(state: \.counter, action: Feature.Action.second)
    #expect(first !== second)
    second.send(.increment)
    first.send(.increment)
    #expect(store.log == ["second", "first"])
  }

  @Test func scopingTheSameWayFromOnePlaceReturnsTheSameStore() {
    let store = Store(initialState: Feature.State()) { Feature() }
    var stores: [Store<Counter.State, Counter.Action>] = []
    for _ in 0..<2 { stores.append(store.scope(state: \.counter, action: Feature.Action.first)) }
    #expect(stores[0] === stores[1])
    var optionals: [Store<Counter.State, Counter.Action>?] = []
    for _ in 0..<2 {
      optionals.append(store.scope(state: \.optional, action: Feature.Action.optional))
    }
    #expect(optionals[0] != nil && optionals[0] === optionals[1])
  }

  @Test func aCachedOptionalScopeSendsToItsChild() {
    let store = Store(initialState: Feature.State()) { Feature() }
    store.scope(state: \.optional, action: Feature.Action.optional)?.send(.increment)
    #expect(store.optional?.count == 1)
  }

  @Test func aCachedCollectionScopeSendsToItsElement() {
    let store = Store(initialState: Feature.State()) { Feature() }
    store.scope(state: \.rows, action: Feature.Action.rows)[0].send(.increment)
    #expect(store.rows[id: 1]?.count == 1)
  }

  // Issue 37 (S4b): past 16 cached children, every new one swept the whole cache.
  @Test func makingManyRowStoresSweepsTheCacheRarelyAndStillDropsReleasedOnes() {
    var rows = IdentifiedArrayOf<Counter.State>()
    for id in 1...1_000 { rows.append(Counter.State(id: id)) }
    let store = Store(initialState: Feature.State(rows: rows)) { Feature() }
    var held: [Store<Counter.State, Counter.Action>] = []
    for id in 1...1_000 {
      held.append(store.scope(state: \.rows, action: Feature.Action.rows, id: id)!)
    }
    #expect(store.children.count == 1_000)
    // Doubling thresholds: 16, 32, ..., 1024: at most seven sweeps for a thousand stores.
    #expect(store.childrenSweeps <= 7, "\(store.childrenSweeps) sweeps")
    held.removeAll()
    for id in 1...1_000 {
      held.append(store.scope(state: \.rows, action: Feature.Action.rows, id: id)!)
      held.removeLast()
    }
    // Released stores leave the cache: it never holds more than twice what the last sweep kept.
    #expect(store.children.count <= store.childrenPurgeThreshold)
    #expect(store.childrenPurgeThreshold <= 2_048)
    held.append(store.scope(state: \.rows, action: Feature.Action.rows, id: 7)!)
    held[0].send(.increment)
    #expect(store.rows[id: 7]?.count == 1)
  }
}
