import CascadeTesting
import Testing

@testable import Cascade

// Parity with TCA's PresentationReducerTests, the behaviours about a presented child's identity
// read in the second half of that file: the same child set again in response to `.dismiss` is
// still dismissed (testRehydrateSameChild_SendDismissAction); a child that changes its own id
// ends the effects it started under the old one (testPresentation_DestinationEnum_IdentityChange);
// an alert's button that presents a dialog leaves the dialog, and the reverse (testAlertThenDialog);
// a child restarting an effect with `cancelInFlight` leaves the parent's effect with the same id
// running (testCancelInFlightEffects).

/// A presented child that can change its own id and restart a one-second response.
private struct Child: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var count = 0
  }
  enum Action: Equatable, Sendable {
    case tap
    case response
    case changeID(Int)
  }
  enum CancelID { case response }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.response)
      }
      .cancellable(id: CancelID.response, cancelInFlight: true)
    case .response:
      state.count += 1
      return .none
    case let .changeID(id):
      state.id = id
      return .none
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: Child.State?
    @PresentationState var destination: Choice.State?
    var responses = 0
  }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<Child.Action>)
    case destination(PresentationAction<Choice.Action>)
    case present(Int)
    case showAlert
    case response
  }
  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .present(id):
        state.child = Child.State(id: id)
        // The parent's own effect, under the child's cancellation id.
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(2))
          await send(.response)
        }
        .cancellable(id: Child.CancelID.response)
      case .child(.dismiss):
        // Set the same child again: it is still the one asked to go.
        state.child = state.child
      case .showAlert:
        state.destination = .alert(Choice.alert)
      case .destination(.presented(.alert(.showDialog))):
        state.destination = .dialog(Choice.dialog)
      case .destination(.presented(.dialog(.showAlert))):
        state.destination = .alert(Choice.alert)
      case .response:
        state.responses += 1
      case .child, .destination:
        break
      }
      return .none
    }
    .ifLet(\.$child, action: Action.child) { Child() }
    .ifLet(\.$destination, action: Action.destination) { Choice() }
  }
}

/// An alert and a dialog whose buttons show each other.
private struct Choice: Reducer {
  enum State: Equatable, Sendable {
    case alert(AlertState<Button>)
    case dialog(ConfirmationDialogState<Button>)
  }
  enum Action: Equatable, Sendable {
    case alert(Button)
    case dialog(Button)
  }
  enum Button: Equatable, Sendable { case showAlert, showDialog }

  static let alert = AlertState<Button> {
    "Choose"
  } actions: {
    ButtonState(action: .showDialog) { "Show the dialog" }
  }
  static let dialog = ConfirmationDialogState<Button> {
    "Choose"
  } actions: {
    ButtonState(action: .showAlert) { "Show the alert" }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

@MainActor
@Suite(.hangGuard)
struct PresentationIdentityTests {
  let clock = TestClock()

  private func store() -> TestStore<Parent.State, Parent.Action> {
    TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func theSameChildSetAgainOnDismissIsStillDismissed() async {
    let store = store()
    await store.send(.present(1)) { $0.child = Child.State(id: 1) }
    await store.send(.child(.dismiss)) { $0.child = nil }
    await clock.advance(by: .seconds(2))
    await store.receive(.response) { $0.responses = 1 }
  }

  @Test func aChildThatChangesItsOwnIDEndsWhatItStartedUnderTheOldOne() async {
    let store = store()
    await store.send(.present(1)) { $0.child = Child.State(id: 1) }
    await store.send(.child(.presented(.tap)))
    await store.send(.child(.presented(.changeID(2)))) { $0.child?.id = 2 }
    await clock.advance(by: .seconds(2))
    await store.receive(.response) { $0.responses = 1 }  // the parent's; the child's ended
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  @Test func aChildRestartingItsEffectLeavesTheParentsEffectWithTheSameID() async {
    let store = store()
    await store.send(.present(1)) { $0.child = Child.State(id: 1) }
    await store.send(.child(.presented(.tap)))
    await clock.advance(by: .milliseconds(500))
    await store.send(.child(.presented(.tap)))  // cancels the child's first response only
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.presented(.response))) { $0.child?.count = 1 }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.response) { $0.responses = 1 }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }

  @Test func anAlertButtonThatShowsADialogLeavesTheDialogAndTheReverse() async {
    let store = store()
    await store.send(.showAlert) { $0.destination = .alert(Choice.alert) }
    await store.send(.destination(.presented(.alert(.showDialog)))) {
      $0.destination = .dialog(Choice.dialog)
    }
    await store.send(.destination(.presented(.dialog(.showAlert)))) {
      $0.destination = .alert(Choice.alert)
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }
}
