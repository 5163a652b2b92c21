import CascadeTesting
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

  @Test func optionalAndElseBranches() async {
    let store = TestStore(initialState: [String]()) {
      Configurable(verbose: false, extra: [], useFirst: false)
    }
    await store.send("go") { $0 = ["always:go", "second:go", "combined:go"] }
  }

  @Test func onChangeRunsOnlyWhenTheValueChanged() async {
    struct Feature: Reducer {
      struct State: Equatable {
        var text = ""
        var changes: [String] = []
      }
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
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.set("a")) {
      $0.text = "a"
      $0.changes = ["→a"]
    }
    await store.send(.set("a"))  // unchanged: the onChange reducer does not run
    await store.send(.set("b")) {
      $0.text = "b"
      $0.changes.append("a→b")
    }
  }

  @Test func scopeToAnEnumCaseWarnsOutsideTheCase() async {
    struct Feature: Reducer {
      enum State: Equatable {
        case counting(Int)
        case idle
      }
      enum Action: Equatable {
        case counter(Int)
        case stop
      }
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
    let store = TestStore(initialState: Feature.State.counting(0)) { Feature() }
    await store.send(.counter(2)) { $0 = .counting(2) }
    await store.send(.stop) { $0 = .idle }
    await withKnownIssue {
      await store.send(.counter(1))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("State case: .idle") }
    }
  }

  @Test func reduceErasesAReducer() {
    let erased = Reduce(Logging(name: "erased"))
    var state: [String] = []
    _ = erased.reduce(into: &state, action: "a")
    #expect(state == ["erased:a"])
  }
}
