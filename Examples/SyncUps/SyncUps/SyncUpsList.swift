import Cascade
import Foundation

/// The app's first screen: every sync-up, and a sheet to add one.
struct SyncUpsList: Reducer {
  /// What the list can present: the form for a new sync-up, or an alert.
  struct Destination: Reducer {
    enum State: Equatable, Sendable, CasePathable {
      case add(SyncUpForm.State)
      case alert(AlertState<Alert>)
    }

    enum Action: Equatable, Sendable {
      case add(SyncUpForm.Action)
      case alert(Alert)
    }

    enum Alert: Equatable, Sendable {
      case confirmLoadMockData
    }

    var body: some ReducerOf<Self> {
      Scope(state: State.add, action: Action.add) { SyncUpForm() }
    }
  }

  struct State: Equatable {
    @PresentationState var destination: Destination.State?
    @Shared(.syncUps) var syncUps: IdentifiedArrayOf<SyncUp>

    init(destination: Destination.State? = nil) {
      self.destination = destination
    }
  }

  enum Action: Equatable, Sendable {
    case addSyncUpButtonTapped
    case confirmAddSyncUpButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case dismissAddSyncUpButtonTapped
    case onDelete(IndexSet)
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addSyncUpButtonTapped:
        state.destination = .add(SyncUpForm.State(syncUp: SyncUp(id: SyncUp.ID(uuid()))))
        return .none

      case .confirmAddSyncUpButtonTapped:
        guard case let .some(.add(editState)) = state.destination else { return .none }
        var syncUp = editState.syncUp
        syncUp.attendees.removeAll { attendee in
          attendee.name.allSatisfy(\.isWhitespace)
        }
        if syncUp.attendees.isEmpty {
          syncUp.attendees.append(
            editState.syncUp.attendees.first ?? Attendee(id: Attendee.ID(uuid())))
        }
        state.$syncUps.withLock { _ = $0.append(syncUp) }
        state.destination = nil
        return .none

      case .destination:
        return .none

      case .dismissAddSyncUpButtonTapped:
        state.destination = nil
        return .none

      case let .onDelete(indexSet):
        state.$syncUps.withLock { $0.remove(atOffsets: indexSet) }
        return .none
      }
    }
    .ifLet(\.$destination, action: Action.destination) { Destination() }
  }
}

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
  /// Every sync-up, saved as JSON in the user's documents folder (the temporary folder where
  /// there is none).
  static var syncUps: Self {
    let folder =
      FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
      ?? FileManager.default.temporaryDirectory
    return Self[.fileStorage(folder.appending(component: "sync-ups.json")), default: []]
  }
}
