import Cascade
import CascadeTesting
import Foundation
import Testing

@testable import CascadeExampleSyncUps

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct SyncUpDetailTests {
  @Test func speechRestricted() async {
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
      SyncUpDetail()
    } withDependencies: {
      $0.speechClient.authorizationStatus = { .restricted }
    }

    await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionRestricted)
    }
  }

  @Test func speechDenied() async throws {
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
      SyncUpDetail()
    } withDependencies: {
      $0.speechClient.authorizationStatus = {
        .denied
      }
    }

    await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionDenied)
    }
  }

  @Test func openSettings() async {
    let settingsOpened = LockIsolated(false)

    let store = TestStore(
      initialState: SyncUpDetail.State(
        destination: .alert(.speechRecognitionDenied),
        syncUp: Shared(value: .mock)
      )
    ) {
      SyncUpDetail()
    } withDependencies: {
      $0.openSettings = { settingsOpened.setValue(true) }
      $0.speechClient.authorizationStatus = { .denied }
    }

    await store.send(.destination(.presented(.alert(.openSettings)))) {
      $0.destination = nil
    }
    #expect(settingsOpened.value)
  }

  @Test func continueWithoutRecording() async throws {
    let store = TestStore(
      initialState: SyncUpDetail.State(
        destination: .alert(.speechRecognitionDenied),
        syncUp: Shared(value: .mock)
      )
    ) {
      SyncUpDetail()
    } withDependencies: {
      $0.speechClient.authorizationStatus = { .denied }
    }

    await store.send(.destination(.presented(.alert(.continueWithoutRecording)))) {
      $0.destination = nil
    }

    await store.receive(\.delegate.startMeeting)
  }

  @Test func speechAuthorized() async throws {
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
      SyncUpDetail()
    } withDependencies: {
      $0.speechClient.authorizationStatus = { .authorized }
    }

    await store.send(.startMeetingButtonTapped)

    await store.receive(\.delegate.startMeeting)
  }

  @Test func edit() async {
    var syncUp = SyncUp.mock
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: syncUp))) {
      SyncUpDetail()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.editButtonTapped) {
      $0.destination = .edit(SyncUpForm.State(syncUp: syncUp))
    }

    syncUp.title = "Blob's Meeting"
    await store.send(.destination(.presented(.edit(.binding(.set(\.syncUp, syncUp)))))) {
      $0.destination?.modify(SyncUpDetail.Destination.State.edit) {
        $0.syncUp.title = "Blob's Meeting"
      }
    }

    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.$syncUp.withLock { $0.title = "Blob's Meeting" }
    }
  }

  @Test func delete() async throws {
    let syncUp = SyncUp.mock
    @Shared(.syncUps) var syncUps = [syncUp]
    // The removal from the list of every sync-up is not part of the detail's state, so it is
    // checked once the test is over.
    defer { #expect(syncUps == []) }

    let sharedSyncUp = try #require(Shared($syncUps[id: syncUp.id]))
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: sharedSyncUp)) {
      SyncUpDetail()
    }

    await store.send(.deleteButtonTapped) {
      $0.destination = .alert(.deleteSyncUp)
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion)))) {
      $0.destination = nil
    }
    #expect(store.isDismissed)
  }
}
