import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's IfCaseLetReducerTests: 4 behaviours ported, 0 deliberately different
// (the warning's text is Cascade's own).

private struct Feature: Reducer {
  enum State: Equatable, Sendable {
    case first(Ticker.State)
    case second(Ticker.State)
  }
  enum Action: Equatable, Sendable {
    case first(Ticker.Action)
    case second(Ticker.Action)
    case showFirst(Int)
    case showSecond
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .showFirst(id): state = .first(Ticker.State(id: id))
      case .showSecond: state = .second(Ticker.State())
      case .first, .second: break
      }
      return .none
    }
    .ifCaseLet(State.first, action: Action.first) { Ticker() }
    .ifCaseLet(State.second, action: Action.second) { Ticker() }
  }
}

@MainActor
@Suite(.hangGuard)
struct IfCaseLetReducerTests {
  let clock = TestClock()

  private func store(_ state: Feature.State) -> TestStore<Feature.State, Feature.Action> {
    TestStore(initialState: state) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aChildActionRunsTheChildInItsCase() async {
    let store = store(.first(Ticker.State(id: 1)))
    await store.send(.first(.tick)) { $0 = .first(Ticker.State(id: 1, ticks: 1)) }
  }

  @Test func anActionForAnotherCaseWarns() async {
    let store = store(.second(Ticker.State()))
    await withKnownIssue {
      await store.send(.first(.tick))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("while the state was in another case") }
    }
  }

  @Test func leavingTheCaseCancelsTheChildsEffects() async {
    let store = store(.first(Ticker.State(id: 1)))
    await store.send(.first(.start))
    await store.send(.showSecond) { $0 = .second(Ticker.State()) }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  // Issue 20, point 2: the same case with another identity is another child.
  @Test func anIdentifiableChildReplacedInTheSameCaseLosesItsEffects() async {
    let store = store(.first(Ticker.State(id: 1)))
    await store.send(.first(.start))
    await store.send(.showFirst(2)) { $0 = .first(Ticker.State(id: 2)) }
    await store.send(.first(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.first(.tick)) { $0 = .first(Ticker.State(id: 2, ticks: 1)) }
    await store.finish()
  }
}
