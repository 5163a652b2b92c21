import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's PresentationReducerTests, read in full: 17 behaviours ported (here, in
// PresentationIdentityTests and in EffectCancellationTests' CancellationAcrossLevelsTests; the rest
// of that file covers SwiftUI bindings, deprecated APIs and its warnings' exact text), 2
// deliberately different (see "Navigation: differences from TCA" in the migration guide): an alert
// is cleared before the parent sees its button's action, and a child that is neither `Identifiable`
// nor an enum keeps its identity when replaced by another value.

/// The usual TCA 1.x destination: a screen or an alert, as cases of one enum.
private struct Destination: Reducer {
  enum State: Equatable, Sendable {
    case ticker(Ticker.State)
    case alert(AlertState<Action.Alert>)
  }
  enum Action: Equatable, Sendable {
    case ticker(Ticker.Action)
    case alert(Alert)
    enum Alert: Equatable, Sendable { case confirm }
  }
  var body: some Reducer<State, Action> {
    Scope(state: State.ticker, action: Action.ticker) { Ticker() }
  }
}

/// A screen that is not `Identifiable` and not an enum: its identity is its position alone.
private struct Plain: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
  }
  typealias Action = Ticker.Action
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
    case .tick:
      state.ticks += 1
      return .none
    case .startLoop, .startTimer, .busyThenSleep, .cancel, .close:
      return .none
    }
  }
}

private struct Feature: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var destination: Destination.State?
    @PresentationState var plain: Plain.State?
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Destination.Action>)
    case plain(PresentationAction<Plain.Action>)
    case showTicker(Int)
    case showAlert
    case touchPlain
    case showPlain
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .showTicker(id):
        state.destination = .ticker(Ticker.State(id: id))
      case .showAlert:
        state.destination = .alert(
          AlertState {
            "Sure?"
          } actions: {
            ButtonState(action: .confirm) { "Yes" }
          })
      case .destination(.dismiss):
        // Dismissing the first ticker presents a second one in its place.
        if case .ticker(let ticker)? = state.destination, ticker.id == 1 {
          state.destination = .ticker(Ticker.State(id: 2))
        }
      case .destination(.presented(.alert(.confirm))):
        state.log.append("confirmed")
      case .destination:
        break
      case .showPlain:
        state.plain = Plain.State()
      case .touchPlain:
        // Read the child, change it, write it back: the same presentation.
        var plain = state.plain!
        plain.ticks += 10
        state.plain = plain
      case .plain:
        break
      }
      return .none
    }
    .ifLet(\.$destination, action: Action.destination) { Destination() }
    .ifLet(\.$plain, action: Action.plain) { Plain() }
  }
}

@MainActor
@Suite(.hangGuard)
struct PresentationReducerTests {
  let clock = TestClock()

  private func feature() -> TestStore<Feature.State, Feature.Action> {
    TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  // MARK: Issue 20, point 3: dismiss keeps what the parent presented instead

  @Test func dismissKeepsAChildTheParentPresentedInItsPlace() async {
    let store = feature()
    await store.send(.showTicker(1)) { $0.destination = .ticker(Ticker.State(id: 1)) }
    await store.send(.destination(.dismiss)) { $0.destination = .ticker(Ticker.State(id: 2)) }
  }

  // MARK: Issue 20, point 4: an alert that is a destination case dismisses itself

  @Test func anAlertInADestinationEnumGoesAwayAfterAButton() async {
    let store = feature()
    await store.send(.showAlert) {
      $0.destination = .alert(
        AlertState {
          "Sure?"
        } actions: {
          ButtonState(action: .confirm) { "Yes" }
        })
    }
    await store.send(.destination(.presented(.alert(.confirm)))) {
      $0.destination = nil
      $0.log = ["confirmed"]
    }
  }

  @Test func aScreenInADestinationEnumStaysAfterItsActions() async {
    let store = feature()
    await store.send(.showTicker(3)) { $0.destination = .ticker(Ticker.State(id: 3)) }
    await store.send(.destination(.presented(.ticker(.tick)))) {
      $0.destination = .ticker(Ticker.State(id: 3, ticks: 1))
    }
  }

  // MARK: Issue 20, point 9: same identity, same presentation

  @Test func writingBackThePresentedStateKeepsThePresentationAndItsEffects() async {
    let store = feature()
    await store.send(.showPlain) { $0.plain = Plain.State() }
    await store.send(.plain(.presented(.start)))
    await store.send(.touchPlain) { $0.plain?.ticks = 10 }
    await clock.advance(by: .seconds(1))
    await store.receive(.plain(.presented(.tick))) { $0.plain?.ticks = 11 }
    await store.finish()
  }

  @Test func replacingWithAnotherCaseOrIDCancelsTheOldPresentationsEffects() async {
    let store = feature()
    await store.send(.showTicker(5)) { $0.destination = .ticker(Ticker.State(id: 5)) }
    await store.send(.destination(.presented(.ticker(.start))))
    await store.send(.showTicker(6)) { $0.destination = .ticker(Ticker.State(id: 6)) }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  // MARK: Ported from TCA

  @Test func theParentDismissesAndTheChildsEffectsEnd() async {
    let store = feature()
    await store.send(.showTicker(1)) { $0.destination = .ticker(Ticker.State(id: 1)) }
    await store.send(.destination(.presented(.ticker(.start))))
    await store.send(.showAlert) {
      $0.destination = .alert(
        AlertState {
          "Sure?"
        } actions: {
          ButtonState(action: .confirm) { "Yes" }
        })
    }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func theChildDismissesItselfThroughDismiss() async {
    let store = feature()
    await store.send(.showTicker(3)) { $0.destination = .ticker(Ticker.State(id: 3)) }
    await store.send(.destination(.presented(.ticker(.close))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
  }

  @Test func aChildCancelsItsOwnEffectByID() async {
    let store = feature()
    await store.send(.showTicker(3)) { $0.destination = .ticker(Ticker.State(id: 3)) }
    await store.send(.destination(.presented(.ticker(.start))))
    await store.send(.destination(.presented(.ticker(.cancel))))
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func anActionWhileNothingIsPresentedWarns() async {
    let store = feature()
    await withKnownIssue {
      await store.send(.destination(.presented(.ticker(.tick))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("while nothing was presented") }
    }
  }

  @Test func dismissWhileNothingIsPresentedWarns() async {
    let store = feature()
    await withKnownIssue {
      await store.send(.destination(.dismiss))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("while nothing was presented") }
    }
  }

  @Test func aDeepLinkedChildRunsAndDismisses() async {
    let store = TestStore(
      initialState: Feature.State(destination: .ticker(Ticker.State(id: 4)))
    ) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.destination(.presented(.ticker(.tick)))) {
      $0.destination = .ticker(Ticker.State(id: 4, ticks: 1))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }
}
