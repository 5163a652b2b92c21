import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// A parent with a stack of tickers and a presented ticker, which logs every action it reduces,
/// its children's included, so two stores can be compared action by action.
private struct Screens: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var path = StackState<Ticker.State>()
    @PresentationState var child: Ticker.State?
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Ticker>)
    case child(PresentationAction<Ticker.Action>)
    case push
    case present
    case popAll
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      state.log.append("\(action)")
      switch action {
      case .push: state.path.append(Ticker.State())
      case .present: state.child = Ticker.State()
      case .popAll: state.path.removeAll()
      case .path, .child: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Ticker() }
    .ifLet(\.$child, action: Action.child) { Ticker() }
  }
}

/// A stack screen's or a presented child's effects live as long as it does: they deliver to it,
/// end when it is popped, dismissed or removed by its parent, and may dismiss it. Each script
/// runs in a real `Store` and in the `TestStore`, which must reduce the same actions into the
/// same states, in the same order, with no effect left running.
@MainActor
@Suite(.hangGuard)
struct ChildEffectLifetimeTests {
  @Test func aScreensEffectDeliversToItsScreen() async {
    await expectParity([
      .send(.push), .send(.path(.element(id: 0, action: .start))),
      .advance(.seconds(1)), .receive(.path(.element(id: 0, action: .tick))),
    ])
  }

  @Test func aPoppedScreensEffectIsCancelled() async {
    await expectParity([
      .send(.push), .send(.push), .send(.path(.element(id: 0, action: .start))),
      .send(.path(.element(id: 1, action: .start))), .send(.path(.popFrom(id: 1))),
      .advance(.seconds(1)), .receive(.path(.element(id: 0, action: .tick))),
    ])
  }

  @Test func screensRemovedByTheParentLoseTheirEffects() async {
    await expectParity([
      .send(.push), .send(.path(.element(id: 0, action: .start))), .send(.popAll),
      .advance(.seconds(1)),
    ])
  }

  @Test func aScreenDismissesItself() async {
    await expectParity([
      .send(.push), .send(.path(.element(id: 0, action: .close))),
      .receive(.path(.popFrom(id: 0))),
    ])
  }

  @Test func aPresentedChildsEffectDeliversToIt() async {
    await expectParity([
      .send(.present), .send(.child(.presented(.start))),
      .advance(.seconds(1)), .receive(.child(.presented(.tick))),
    ])
  }

  @Test func aDismissedChildsEffectIsCancelled() async {
    await expectParity([
      .send(.present), .send(.child(.presented(.start))), .send(.child(.dismiss)),
      .advance(.seconds(1)),
    ])
  }

  @Test func aPresentedChildDismissesItself() async {
    await expectParity([
      .send(.present), .send(.child(.presented(.close))), .receive(.child(.dismiss)),
    ])
  }

  @Test func aScreenAndAChildTickTogether() async {
    await expectParity([
      .send(.push), .send(.present), .send(.path(.element(id: 0, action: .start))),
      .send(.child(.presented(.start))), .advance(.seconds(1)),
      .receive(.path(.element(id: 0, action: .tick))), .receive(.child(.presented(.tick))),
    ])
  }

  private func expectParity(
    _ script: [ScriptStep<Screens.Action>], sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await expectStoreAndTestStoreAgree(
      script, initialState: Screens.State(), reducedCount: { $0.log.count },
      sourceLocation: sourceLocation, feature: { _ in Screens() })
  }
}
