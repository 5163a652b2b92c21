import Cascade
import Foundation

/// One sync-up: its details and past meetings, editing it, deleting it, starting a meeting.
struct SyncUpDetail: Reducer {
  /// What the detail can present: an alert, or the form that edits the sync-up.
  struct Destination: Reducer {
    enum State: Equatable, Sendable, CasePathable {
      case alert(AlertState<Alert>)
      case edit(SyncUpForm.State)
    }

    enum Action: Equatable, Sendable {
      case alert(Alert)
      case edit(SyncUpForm.Action)
    }

    enum Alert: Equatable, Sendable {
      case confirmDeletion
      case continueWithoutRecording
      case openSettings
    }

    var body: some ReducerOf<Self> {
      Scope(state: State.edit, action: Action.edit) { SyncUpForm() }
    }
  }

  struct State: Equatable {
    @PresentationState var destination: Destination.State?
    @Shared var syncUp: SyncUp

    init(destination: Destination.State? = nil, syncUp: Shared<SyncUp>) {
      self.destination = destination
      self._syncUp = syncUp
    }
  }

  enum Action: Equatable, Sendable {
    case cancelEditButtonTapped
    case delegate(Delegate)
    case deleteButtonTapped
    case deleteMeetings(atOffsets: IndexSet)
    case destination(PresentationAction<Destination.Action>)
    case doneEditingButtonTapped
    case editButtonTapped
    case startMeetingButtonTapped

    /// What the detail asks of the feature that pushed it.
    enum Delegate: Equatable, Sendable {
      case startMeeting(Shared<SyncUp>)
    }
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.openSettings) var openSettings
  @Dependency(\.speechClient.authorizationStatus) var authorizationStatus

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelEditButtonTapped:
        state.destination = nil
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.destination = .alert(.deleteSyncUp)
        return .none

      case let .deleteMeetings(atOffsets: indices):
        state.$syncUp.withLock { $0.meetings.remove(atOffsets: indices) }
        return .none

      case let .destination(.presented(.alert(alertAction))):
        switch alertAction {
        case .confirmDeletion:
          @Shared(.syncUps) var syncUps: IdentifiedArrayOf<SyncUp>
          $syncUps.withLock { _ = $0.remove(id: state.syncUp.id) }
          return .run { _ in await dismiss() }
        case .continueWithoutRecording:
          return .send(.delegate(.startMeeting(state.$syncUp)))
        case .openSettings:
          return .run { _ in await openSettings() }
        }

      case .destination:
        return .none

      case .doneEditingButtonTapped:
        guard case let .some(.edit(editState)) = state.destination else { return .none }
        state.$syncUp.withLock { $0 = editState.syncUp }
        state.destination = nil
        return .none

      case .editButtonTapped:
        state.destination = .edit(SyncUpForm.State(syncUp: state.syncUp))
        return .none

      case .startMeetingButtonTapped:
        switch authorizationStatus() {
        case .notDetermined, .authorized:
          return .send(.delegate(.startMeeting(state.$syncUp)))
        case .denied:
          state.destination = .alert(.speechRecognitionDenied)
          return .none
        case .restricted:
          state.destination = .alert(.speechRecognitionRestricted)
          return .none
        }
      }
    }
    .ifLet(\.$destination, action: Action.destination) { Destination() }
  }
}

extension AlertState where Action == SyncUpDetail.Destination.Alert {
  static let deleteSyncUp = Self {
    "Delete?"
  } actions: {
    ButtonState(role: .destructive, action: .confirmDeletion) { "Yes" }
    ButtonState(role: .cancel) { "Nevermind" }
  } message: {
    "Are you sure you want to delete this meeting?"
  }

  static let speechRecognitionDenied = Self {
    "Speech recognition denied"
  } actions: {
    ButtonState(action: .continueWithoutRecording) { "Continue without recording" }
    ButtonState(action: .openSettings) { "Open settings" }
    ButtonState(role: .cancel) { "Cancel" }
  } message: {
    """
    You previously denied speech recognition and so your meeting will not be recorded. You \
    can enable speech recognition in settings, or you can continue without recording.
    """
  }

  static let speechRecognitionRestricted = Self {
    "Speech recognition restricted"
  } actions: {
    ButtonState(action: .continueWithoutRecording) { "Continue without recording" }
    ButtonState(role: .cancel) { "Cancel" }
  } message: {
    "Your device does not support speech recognition and so your meeting will not be recorded."
  }
}
