import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// Contract 4: child first, then parent; absent children warned about, parent still runs.
private struct Child: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable, Sendable {
    case increment
    case listen(String)
    case stop(String)
  }
  let log: Box<[String]>
  let effect: LongEffect

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    log.update { $0.append("child") }
    switch action {
    case .increment:
      state.count += 1
      return .none
    case let .listen(id):
      return effect.run().cancellable(id: id)
    case let .stop(id):
      return .cancel(id: id)
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable {
    var child: Child.State?
    var rows: IdentifiedArrayOf<Child.State> = []
    var seenChildCount = -1
  }
  enum Action: Equatable, Sendable {
    case child(Child.Action)
    case rows(IdentifiedActionOf<Child>)
    case present, dismiss
    case addRow(Int)
    case removeRow(Int)
    case listen(String)
    case stop(String)
  }
  let log: Box<[String]>
  let effect: LongEffect

  static let bodyStart = #line
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      log.update { $0.append("parent") }
      switch action {
      case .child: state.seenChildCount = state.child?.count ?? -1
      case let .rows(.element(id, _)): state.seenChildCount = state.rows[id: id]?.count ?? -1
      case .present: state.child = Child.State()
      case .dismiss: state.child = nil
      case let .addRow(id): state.rows.append(Child.State(id: id))
      case let .removeRow(id): state.rows.remove(id: id)
      case let .listen(id): return effect.run().cancellable(id: id)
      case let .stop(id): return .cancel(id: id)
      }
      return .none
    }
    .ifLet(\.child, action: Action.child) { Child(log: log, effect: effect) }
    .forEach(\.rows, action: Action.rows) { Child(log: log, effect: effect) }
  }
  static let bodyEnd = #line
}

private struct Switch: Reducer {
  enum State: Equatable, Sendable {
    case on(Child.State)
    case off
  }
  enum Action: Equatable, Sendable {
    case child(Child.Action)
    case turnOn, turnOff
  }
  let log: Box<[String]>
  let effect: LongEffect

  static let bodyStart = #line
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      log.update { $0.append("parent") }
      switch action {
      case .child:
        if case var .on(child) = state {
          child.id = child.count
          state = .on(child)
        }
      case .turnOn: state = .on(Child.State())
      case .turnOff: state = .off
      }
      return .none
    }
    .ifCaseLet(State.on, action: Action.child) { Child(log: log, effect: effect) }
  }
  static let bodyEnd = #line
}

@MainActor
@Suite(.hangGuard)
struct ChildOperatorTests {
  let log = Box<[String]>([])
  let effect = LongEffect()

  fileprivate func makeStore(_ state: Parent.State = Parent.State()) -> StoreOf<Parent> {
    Store(initialState: state) { Parent(log: log, effect: effect) }
  }

  /// The store's running effects, once those whose body just ended have reported it: a task
  /// reports its end after its body returns, possibly a hop later (always one when a test store
  /// elsewhere in the process runs tasks on the main thread).
  fileprivate func settledEffectCount(of store: StoreOf<Parent>, expecting count: Int) async
    -> Int
  {
    await pollUntil { store.activeEffectCount == count }
    return store.activeEffectCount
  }

  @Test func ifLetRunsTheChildFirst() {
    let store = makeStore()
    store.send(.present)
    log.update { $0 = [] }
    store.send(.child(.increment))
    #expect(log.value == ["child", "parent"])
    #expect(store.child?.count == 1)
    #expect(store.seenChildCount == 1)  // the parent saw the child's change
  }

  @Test func forEachRunsTheElementFirst() {
    let store = makeStore()
    store.send(.addRow(1))
    store.send(.addRow(2))
    log.update { $0 = [] }
    store.send(.rows(.element(id: 2, action: .increment)))
    #expect(log.value == ["child", "parent"])
    #expect(store.rows[id: 2]?.count == 1)
    #expect(store.rows[id: 1]?.count == 0)
    #expect(store.seenChildCount == 1)
  }

  @Test func ifCaseLetRunsTheChildFirst() {
    let store = Store(initialState: Switch.State.off) { Switch(log: log, effect: effect) }
    store.send(.turnOn)
    log.update { $0 = [] }
    store.send(.child(.increment))
    #expect(log.value == ["child", "parent"])
    // The parent copied the child's new count into its id: it saw the child's change.
    #expect(store.state == .on(Child.State(id: 1, count: 1)))
  }

  @Test func actionsForAbsentChildrenAreWarnedAboutAndTheParentStillRuns() async {
    let store = makeStore()
    let switchStore = Store(initialState: Switch.State.off) { Switch(log: log, effect: effect) }
    let (_, warnings) = await RuntimeWarnings.capturing {
      store.send(.child(.increment))
      store.send(.rows(.element(id: 7, action: .increment)))
      switchStore.send(.child(.increment))
    }
    #expect(log.value == ["parent", "parent", "parent"])  // no child ran, every parent did
    #expect(warnings.count == 3)
    for warning in warnings {
      #expect(warning.fileID == "CascadeTests/ChildOperatorTests.swift")
    }
    #expect((UInt(Parent.bodyStart)...UInt(Parent.bodyEnd)).contains(warnings[0].line))
    #expect((UInt(Parent.bodyStart)...UInt(Parent.bodyEnd)).contains(warnings[1].line))
    #expect((UInt(Switch.bodyStart)...UInt(Switch.bodyEnd)).contains(warnings[2].line))
    #expect(warnings[0].message.contains("'ifLet'"))
    #expect(warnings[1].message.contains("'forEach'"))
    #expect(warnings[1].message.contains("Missing id: 7"))
    #expect(warnings[2].message.contains("'ifCaseLet'"))
    #expect(warnings[2].message.contains(".off"))
  }

  @Test func dismissingAnIfLetChildCancelsItsEffects() async {
    let store = makeStore()
    store.send(.present)
    store.send(.child(.listen("a")))
    store.send(.child(.listen("b")))
    store.send(.listen("parent"))
    await effect.started.wait(for: 3)
    store.send(.dismiss)
    await effect.ended.wait(for: 2)
    // The parent's own effect lives on.
    #expect(await settledEffectCount(of: store, expecting: 1) == 1)
    store.send(.stop("parent"))
    await effect.ended.wait(for: 3)
  }

  @Test func leavingAnIfCaseLetCaseCancelsItsEffects() async {
    let store = Store(initialState: Switch.State.off) { Switch(log: log, effect: effect) }
    store.send(.turnOn)
    store.send(.child(.listen("a")))
    await effect.started.wait(for: 1)
    store.send(.turnOff)
    await effect.ended.wait(for: 1)
    #expect(effect.ended.count == 1)
  }

  @Test func removingAnElementCancelsOnlyItsEffects() async {
    let store = makeStore()
    store.send(.addRow(1))
    store.send(.addRow(2))
    store.send(.rows(.element(id: 1, action: .listen("x"))))
    store.send(.rows(.element(id: 2, action: .listen("x"))))
    await effect.started.wait(for: 2)
    store.send(.removeRow(1))
    await effect.ended.wait(for: 1)
    #expect(await settledEffectCount(of: store, expecting: 1) == 1)
    store.send(.removeRow(2))
    await effect.ended.wait(for: 2)
    #expect(await settledEffectCount(of: store, expecting: 0) == 0)
  }

  @Test func theSameCancelIDInTwoElementsNeverCollides() async {
    let store = makeStore()
    store.send(.addRow(1))
    store.send(.addRow(2))
    store.send(.rows(.element(id: 1, action: .listen("x"))))
    store.send(.rows(.element(id: 2, action: .listen("x"))))
    await effect.started.wait(for: 2)
    let stop = store.send(.rows(.element(id: 1, action: .stop("x"))))
    await stop.finish()
    await effect.ended.wait(for: 1)
    #expect(await settledEffectCount(of: store, expecting: 1) == 1)  // element 2's "x" still runs
    store.send(.removeRow(2))
    await effect.ended.wait(for: 2)
  }

  @Test func aParentCancelsChildEffectsByIDButNotTheReverse() async {
    let store = makeStore()
    store.send(.addRow(1))
    store.send(.listen("x"))
    store.send(.rows(.element(id: 1, action: .listen("x"))))
    await effect.started.wait(for: 2)

    // The child cancelling "x" reaches only its own.
    store.send(.rows(.element(id: 1, action: .stop("x"))))
    await effect.ended.wait(for: 1)
    #expect(await settledEffectCount(of: store, expecting: 1) == 1)

    // The parent cancelling "x" reaches its own and every child's.
    store.send(.rows(.element(id: 1, action: .listen("x"))))
    await effect.started.wait(for: 3)
    #expect(await settledEffectCount(of: store, expecting: 2) == 2)
    store.send(.stop("x"))
    await effect.ended.wait(for: 3)
    #expect(await settledEffectCount(of: store, expecting: 0) == 0)
  }
}
