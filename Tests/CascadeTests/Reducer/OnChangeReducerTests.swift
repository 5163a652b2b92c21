import CascadeTesting
import Testing

@testable import Cascade

// TCA's OnChangeReducerTests, in Cascade's words: the reducer given to `onChange` sees the old
// and the new value, and the effect it returns runs like any other, so an action it sends
// changes the value again and the reducer runs again.
private struct Exclaimer: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var marks = ""
  }
  enum Action: Equatable, Sendable { case up, down }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      state.count += action == .up ? 1 : -1
      return .none
    }
    .onChange(of: \.count) { _, count in
      Reduce { state, _ in
        state.marks = String(repeating: "!", count: max(count, 0))
        // Above one, the change itself asks to go back down.
        return count > 1 ? .send(.down) : .none
      }
    }
  }
}

@MainActor
@Suite struct OnChangeReducerTests {
  @Test func anEffectOfTheChangeReducerFeedsBackInATestStore() async {
    let store = TestStore(initialState: Exclaimer.State()) { Exclaimer() }
    await store.send(.up) {
      $0.count = 1
      $0.marks = "!"
    }
    await store.send(.up) {
      $0.count = 2
      $0.marks = "!!"
    }
    await store.receive(.down) {
      $0.count = 1
      $0.marks = "!"
    }
  }

  @Test func anEffectOfTheChangeReducerFeedsBackInAStore() async {
    let store = Store(initialState: Exclaimer.State()) { Exclaimer() }
    store.send(.up)
    #expect(store.state == Exclaimer.State(count: 1, marks: "!"))
    await store.send(.up).finish()
    #expect(store.state == Exclaimer.State(count: 1, marks: "!"))
  }
}
