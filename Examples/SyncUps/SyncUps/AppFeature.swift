import Cascade
import Foundation

/// The root: the list of sync-ups at the bottom of one navigation stack.
struct AppFeature: Reducer {
  /// The screens the stack can show. A past meeting is plain state: it has no actions.
  struct Path: Reducer {
    enum State: Equatable, CasePathable {
      case detail(SyncUpDetail.State)
      case meeting(Meeting, syncUp: SyncUp)
      case record(RecordMeeting.State)
    }

    enum Action: Equatable, Sendable {
      case detail(SyncUpDetail.Action)
      case record(RecordMeeting.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: State.detail, action: Action.detail) { SyncUpDetail() }
      Scope(state: State.record, action: Action.record) { RecordMeeting() }
    }
  }

  struct State: Equatable {
    var path = StackState<Path.State>()
    var syncUpsList = SyncUpsList.State()
  }

  enum Action: Equatable, Sendable {
    case path(StackActionOf<Path>)
    case syncUpsList(SyncUpsList.Action)
  }

  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Scope(state: \.syncUpsList, action: Action.syncUpsList) {
      SyncUpsList()
    }
    Reduce { state, action in
      switch action {
      case let .path(.element(id: _, action: .detail(.delegate(.startMeeting(sharedSyncUp))))):
        state.path.append(.record(RecordMeeting.State(syncUp: sharedSyncUp)))
        return .none

      case .path:
        return .none

      case .syncUpsList:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) {
      Path()
    }
  }
}
