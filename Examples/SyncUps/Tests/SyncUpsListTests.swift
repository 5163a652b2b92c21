import Cascade
import CascadeTesting
import Foundation
import Testing

@testable import CascadeExampleSyncUps

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct SyncUpsListTests {
  @Test func add() async throws {
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    var syncUp = SyncUp(
      id: SyncUp.ID(UUID(0)),
      attendees: [
        Attendee(id: Attendee.ID(UUID(1)))
      ]
    )
    await store.send(.addSyncUpButtonTapped) {
      $0.destination = .add(SyncUpForm.State(syncUp: syncUp))
    }

    syncUp.title = "Engineering"
    await store.send(.destination(.presented(.add(.binding(.set(\.syncUp, syncUp)))))) {
      $0.destination?.modify(SyncUpsList.Destination.State.add) {
        $0.syncUp.title = "Engineering"
      }
    }

    await store.send(.confirmAddSyncUpButtonTapped) {
      $0.destination = nil
      $0.$syncUps.withLock { $0 = [syncUp] }
    }
  }

  @Test func addAndConfirmValidatesAttendees() async throws {
    @Dependency(\.uuid) var uuid

    let store = TestStore(
      initialState: SyncUpsList.State(
        destination: .add(
          SyncUpForm.State(
            syncUp: SyncUp(
              id: SyncUp.ID(uuidString: "deadbeef-dead-beef-dead-beefdeadbeef")!,
              attendees: [
                Attendee(id: Attendee.ID(uuid()), name: ""),
                Attendee(id: Attendee.ID(uuid()), name: "    "),
              ],
              title: "Design"
            )
          )
        )
      )
    ) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.confirmAddSyncUpButtonTapped) {
      $0.destination = nil
      $0.$syncUps.withLock {
        $0 = [
          SyncUp(
            id: SyncUp.ID(uuidString: "deadbeef-dead-beef-dead-beefdeadbeef")!,
            attendees: [
              Attendee(id: Attendee.ID(UUID(0)))
            ],
            title: "Design"
          )
        ]
      }
    }
  }
}
