import Cascade
import CascadeTesting
import Testing

private struct LoadError: Error {}

/// A presented child whose response is not `Equatable`.
private struct Detail: Reducer {
  struct State: Equatable, Sendable {
    var result: String?
  }
  enum Action: Sendable {
    case load
    case loaded(Result<String, any Error>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { send in await send(.loaded(.success("ok"))) }
    case let .loaded(.success(text)):
      state.result = text
      return .none
    case .loaded(.failure):
      return .none
    }
  }
}

/// A screen on the stack that presents the detail.
private struct Screen: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var detail: Detail.State?
  }
  enum Action: Sendable {
    case detail(PresentationAction<Detail.Action>)
    case delegate(Delegate)
    enum Delegate: Equatable, Sendable { case finished(Int) }
  }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .ifLet(\.$detail, action: Action.detail) { Detail() }
  }
}

/// A root with a navigation stack of screens.
private struct Root: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Screen.State>()
  }
  enum Action: Sendable {
    case path(StackActionOf<Screen>)
    case finish
    case noop
    case finished
  }

  var body: some Reducer<State, Action> {
    Reduce { _, action in
      switch action {
      case .finish:
        return .send(.path(.element(id: 0, action: .delegate(.finished(42)))))
      case .noop:
        return .send(.finished)
      case .path, .finished:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Screen() }
  }
}

@MainActor
@Suite(.hangGuard)
struct TestStoreReceiveTests {
  private func makeStore() -> TestStore<Root.State, Root.Action> {
    var path = StackState<Screen.State>()
    path.append(Screen.State(detail: Detail.State()))
    return TestStore(initialState: Root.State(path: path)) { Root() }
  }

  @Test func aStackElementsPresentedChildIsReceivedInOneExpression() async {
    let store = makeStore()
    await store.send(.path(.element(id: 0, action: .detail(.presented(.load)))))
    await store.receive(\.path[id: 0].detail.loaded) {
      $0.path[id: 0]?.detail?.result = "ok"
    }
  }

  @Test func theCaseOfANestedPayloadCanBeNamedToo() async {
    let store = makeStore()
    await store.send(.path(.element(id: 0, action: .detail(.presented(.load)))))
    await store.receive(\.path[id: 0].detail.presented.loaded.success) {
      $0.path[id: 0]?.detail?.result = "ok"
    }
  }

  @Test func aReceivedActionOffThePathFails() async {
    let store = makeStore()
    await store.send(.path(.element(id: 0, action: .detail(.presented(.load)))))
    await withKnownIssue {
      await store.receive(\.path[id: 1].detail.loaded)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(
        "does not follow \\.path[id: 1].detail.loaded")
    }
  }

  @Test func aPathAndAnEquatablePayloadCheckTheValue() async {
    let store = makeStore()
    await store.send(.finish)
    await store.receive(\.path[id: 0].delegate.finished, 42)
    await store.send(.finish)
    await withKnownIssue {
      await store.receive(\.path[id: 0].delegate.finished, 43)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("− 43") && text.contains("+ 42")
    }
  }

  @Test func aPredicateReceivesTheActionItAccepts() async {
    let store = makeStore()
    var calls = 0
    await store.send(.noop)
    await store.receive { action in
      calls += 1
      if case .finished = action { return true }
      return false
    }
    #expect(calls == 1)
    await store.send(.noop)
    await withKnownIssue {
      await store.receive { if case .noop = $0 { true } else { false } }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("the predicate does not accept")
    }
  }

  @Test func lockIsolatedAndActorIsolatedCollectFromEffects() async {
    let calls = LockIsolated(0)
    let log = ActorIsolated<[String]>([])
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<10 {
        group.addTask {
          calls.withValue { $0 += 1 }
          await log.withValue { $0.append("\(index)") }
        }
      }
    }
    #expect(calls.value == 10)
    #expect(await log.value.count == 10)
    #expect(await log.count == 10)
    calls.setValue(0)
    #expect(calls.value == 0)
  }
}
