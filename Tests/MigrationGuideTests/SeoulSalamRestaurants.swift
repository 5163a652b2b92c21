// SeoulSalam's restaurant feature, ported from TCA (the "seoulsalam-reducerprotocol" seed): the
// `ReducerProtocol` version, whose effect was a Combine publisher received on a main-queue
// scheduler from an environment-free dependency.
//
// The regions marked below are copied, character for character, into
// Sources/Cascade/Cascade.docc/MigratingFromTCA.md; ArticleSyncTests fails when they drift.
// The full app is Examples/SeoulSalam.

import Cascade
import CascadeTesting
import Testing

private struct Restaurant: Equatable, Identifiable, Sendable {
  var id: String
  var name: String
  var category: String
  var address: String
  var certifiedState: String
}

// region: seoulsalam-client
/// The restaurant listings as a stream, like a Firestore snapshot listener: the whole list
/// after every change, or a failure.
private struct FirebaseApiClient: Sendable {
  struct ApiFailure: Error, Equatable { var message: String }

  var updateSnapshot: @Sendable () -> AsyncStream<Result<[Restaurant], ApiFailure>>
}

extension FirebaseApiClient: DependencyKey {
  static let liveValue = FirebaseApiClient(updateSnapshot: { AsyncStream { $0.finish() } })
  static let testValue = FirebaseApiClient(updateSnapshot: {
    reportUnimplemented("FirebaseApiClient.updateSnapshot")
    return AsyncStream { $0.finish() }
  })
}

extension DependencyValues {
  fileprivate var firebaseApi: FirebaseApiClient {
    get { self[FirebaseApiClient.self] }
    set { self[FirebaseApiClient.self] = newValue }
  }
}
// endregion

// region: seoulsalam-feature
private struct RestaurantFeature: Reducer {
  struct State: Equatable {
    var restaurants: [Restaurant] = []
    var searchText = ""
    var isSearching = false
    var failure: FirebaseApiClient.ApiFailure?

    var filteredRestaurants: [Restaurant] {
      if searchText.isEmpty {
        return restaurants
      }
      return restaurants.filter {
        $0.name.contains(searchText) || $0.category.contains(searchText)
          || $0.address.contains(searchText) || $0.certifiedState.contains(searchText)
      }
    }
  }

  enum Action: Equatable {
    case startObserve
    case changeSearchText(String)
    case resetSearchText
    case updateRestaurants(Result<[Restaurant], FirebaseApiClient.ApiFailure>)
  }

  @Dependency(\.firebaseApi) var firebaseApi

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .changeSearchText(text):
      state.searchText = text
      state.isSearching = !state.searchText.isEmpty
      return .none
    case .resetSearchText:
      state.searchText = ""
      state.isSearching = false
      return .none
    case .startObserve:
      return .run { [firebaseApi] send in
        for await result in firebaseApi.updateSnapshot() {
          await send(.updateRestaurants(result))
        }
      }
    case let .updateRestaurants(.success(restaurants)):
      state.restaurants = restaurants
      state.failure = nil
      return .none
    case let .updateRestaurants(.failure(failure)):
      state.failure = failure
      return .none
    }
  }
}
// endregion

private let murree = Restaurant(
  id: "1", name: "Murree", category: "Pakistani", address: "Itaewon-ro, Yongsan-gu",
  certifiedState: "Halal certified")
private let andalus = Restaurant(
  id: "2", name: "Cafe Andalus", category: "Cafe", address: "Wausan-ro, Mapo-gu",
  certifiedState: "Muslim friendly")

// region: seoulsalam-test
@MainActor
@Test func restaurantsStreamInAndFilterAsYouType() async {
  let (snapshots, listener) = AsyncStream<Result<[Restaurant], FirebaseApiClient.ApiFailure>>
    .makeStream()
  let store = TestStore(initialState: RestaurantFeature.State()) {
    RestaurantFeature()
  } withDependencies: {
    $0.firebaseApi.updateSnapshot = { snapshots }
  }

  await store.send(.startObserve)
  listener.yield(.success([murree, andalus]))
  await store.receive(.updateRestaurants(.success([murree, andalus]))) {
    $0.restaurants = [murree, andalus]
  }
  await store.send(.changeSearchText("Mapo")) {
    $0.searchText = "Mapo"
    $0.isSearching = true
  }
  #expect(store.state.filteredRestaurants == [andalus])
  await store.send(.resetSearchText) {
    $0.searchText = ""
    $0.isSearching = false
  }

  listener.yield(.failure(.init(message: "permission denied")))
  await store.receive(.updateRestaurants(.failure(.init(message: "permission denied")))) {
    $0.failure = .init(message: "permission denied")
  }
  listener.finish()
  await store.finish()
}
// endregion
