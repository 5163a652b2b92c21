import Testing

@testable import Cascade

private struct Logging: Reducer {
  typealias State = [String]
  typealias Action = String
  let name: String
  func reduce(into state: inout [String], action: String) -> Effect<String> {
    state.append("\(name):\(action)")
    return .none
  }
}

private struct Configurable: Reducer {
  let verbose: Bool
  let extra: [String]
  let useFirst: Bool

  var body: some Reducer<[String], String> {
    Logging(name: "always")
    if verbose {
      Logging(name: "verbose")
    }
    if useFirst {
      Logging(name: "first")
    } else {
      Logging(name: "second")
    }
    for name in extra {
      Logging(name: name)
    }
    CombineReducers {
      Logging(name: "combined")
      EmptyReducer()
    }
  }
}

@MainActor
@Suite struct ReducerBuilderTests {
  @Test func runsEveryListedReducerInOrder() {
    var state: [String] = []
    _ = Configurable(verbose: true, extra: ["x", "y"], useFirst: true)
      .reduce(into: &state, action: "go")
    #expect(state == ["always:go", "verbose:go", "first:go", "x:go", "y:go", "combined:go"])
  }

  @Test func optionalAndElseBranches() {
    let store = Store(initialState: [String]()) {
      Configurable(verbose: false, extra: [], useFirst: false)
    }
    store.send("go")
    #expect(store.state == ["always:go", "second:go", "combined:go"])
  }

  @Test func onChangeRunsOnlyWhenTheValueChanged() {
    struct Feature: Reducer {
      struct State: Equatable { var text = ""; var changes: [String] = [] }
      enum Action { case set(String) }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case let .set(text) = action { state.text = text }
          return .none
        }
        .onChange(of: { $0.text }) { old, new in
          Reduce { state, _ in
            state.changes.append("\(old)→\(new)")
            return .none
          }
        }
      }
    }
    let store = Store(initialState: Feature.State()) { Feature() }
    store.send(.set("a"))
    store.send(.set("a"))
    store.send(.set("b"))
    #expect(store.changes == ["→a", "a→b"])
  }

  @Test func scopeToAnEnumCaseWarnsOutsideTheCase() async {
    struct Feature: Reducer {
      enum State: Equatable { case counting(Int), idle }
      enum Action: Equatable { case counter(Int), stop }
      var body: some Reducer<State, Action> {
        Scope(state: CasePath(State.counting), action: Action.counter) {
          Reduce<Int, Int> { count, delta in
            count += delta
            return .none
          }
        }
        Reduce { state, action in
          if case .stop = action { state = .idle }
          return .none
        }
      }
    }
    let store = Store(initialState: .counting(0)) { Feature() }
    store.send(.counter(2))
    #expect(store.state == .counting(2))
    store.send(.stop)
    let (_, warnings) = await RuntimeWarnings.capturing { store.send(.counter(1)) }
    #expect(store.state == .idle)
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.contains("State case: .idle") == true)
  }

  @Test func reduceErasesAReducer() {
    let erased = Reduce(Logging(name: "erased"))
    var state: [String] = []
    _ = erased.reduce(into: &state, action: "a")
    #expect(state == ["erased:a"])
  }
}
