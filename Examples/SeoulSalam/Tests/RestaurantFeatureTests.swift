import Cascade
import CascadeExampleSeoulSalam
import CascadeExampleSupport
import CascadeTesting
import Foundation
import Testing

private func restaurant(
  _ id: String, _ name: String, category: String = "Korean", district: String = "Yongsan-gu",
  address: String = "1 Itaewon-ro, Yongsan-gu, Seoul", korean: String = "서울 용산구 이태원로 1",
  certification: Restaurant.Certification = .halalCertified
) -> Restaurant {
  Restaurant(
    id: id, name: name, category: category, address: address, addressKorean: korean,
    district: district, certification: certification, latitude: 37.5, longitude: 127)
}

private let murree = restaurant("1", "Murree Pakistani Restaurant", category: "Pakistani")
private let andalus = restaurant(
  "2", "Café Andalus", category: "Cafe", district: "Mapo-gu",
  address: "5 Wausan-ro, Mapo-gu, Seoul", korean: "서울 마포구 와우산로 5", certification: .muslimFriendly)
private let plov = restaurant(
  "3", "Samarkand Plov", category: "Uzbek", district: "Jongno-gu",
  address: "9 Insadong-gil, Jongno-gu, Seoul", korean: "서울 종로구 인사동길 9", certification: .porkFree)

/// A restaurant client the test drives: each observation gets a stream of its own.
private final class Listings: Sendable {
  let streams = Locked<[AsyncStream<Result<[Restaurant], RestaurantFailure>>.Continuation]>([])
  let terminations = Locked(0)

  var client: RestaurantClient {
    RestaurantClient {
      let (stream, continuation) = AsyncStream<Result<[Restaurant], RestaurantFailure>>.makeStream()
      continuation.onTermination = { _ in self.terminations.withLock { $0 += 1 } }
      self.streams.withLock { $0.append(continuation) }
      return stream
    }
  }

  func send(_ update: Result<[Restaurant], RestaurantFailure>) {
    streams.withLock { $0.last }?.yield(update)
  }
}

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct RestaurantFeatureTests {
  let clock = TestClock()
  fileprivate let listings = Listings()

  fileprivate func makeStore() -> TestStore<RestaurantFeature.State, RestaurantFeature.Action> {
    TestStore(initialState: RestaurantFeature.State()) {
      RestaurantFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.restaurants = listings.client
    }
  }

  /// Observes and receives the three restaurants.
  fileprivate func observing() async -> TestStore<RestaurantFeature.State, RestaurantFeature.Action>
  {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.startObserving) { $0.isObserving = true }
    listings.send(.success([murree, andalus, plov]))
    await store.receive(RestaurantFeature.Action.restaurantsUpdated) {
      $0.restaurants = [murree, andalus, plov]
      $0.applyQuery("")
    }
    return store
  }

  fileprivate func results(
    for query: String, in store: TestStore<RestaurantFeature.State, RestaurantFeature.Action>
  ) async -> [String] {
    await store.send(.searchPaused(query))
    return store.state.results.map(\.name)
  }

  @Test func filtersByEachField() async {
    let store = await observing()
    #expect(await results(for: "murree", in: store) == ["Murree Pakistani Restaurant"])  // name
    #expect(await results(for: "UZBEK", in: store) == ["Samarkand Plov"])  // category, any case
    #expect(await results(for: "wausan-ro", in: store) == ["Café Andalus"])  // address
    #expect(await results(for: "인사동길", in: store) == ["Samarkand Plov"])  // Korean address
    #expect(await results(for: "마포구", in: store) == ["Café Andalus"])  // district in Korean
    #expect(await results(for: "jongno", in: store) == ["Samarkand Plov"])  // district
    #expect(await results(for: "pork free", in: store) == ["Samarkand Plov"])  // certification
    #expect(await results(for: "cafe", in: store) == ["Café Andalus"])  // accents do not matter
    // Full-width letters match their ASCII forms.
    #expect(await results(for: "ＭＵＲＲＥＥ", in: store) == ["Murree Pakistani Restaurant"])
    #expect(await results(for: "", in: store).count == 3)
    #expect(await results(for: "sushi", in: store).isEmpty)
    await store.skipInFlightEffects()
  }

  @Test func searchIsDebouncedOnTheClock() async {
    let store = makeStore()
    await store.send(.searchTextChanged("m")) { $0.searchText = "m" }
    #expect(store.state.isSearching)
    await clock.advance(by: .milliseconds(200))
    await store.send(.searchTextChanged("mu")) { $0.searchText = "mu" }
    await clock.advance(by: .milliseconds(299))
    #expect(clock.sleeperCount == 1)  // the debounce is still waiting, 1 ms short
    await clock.advance(by: .milliseconds(1))
    await store.receive(.searchPaused("mu")) { $0.applyQuery("mu") }  // the last one, after 300 ms
    #expect(store.state.query == "mu")
    await store.send(.resetSearchButtonTapped) {
      $0.searchText = ""
      $0.applyQuery("")
    }
    #expect(!store.state.isSearching)
    await store.finish()
  }

  @Test func liveUpdatesChangeTheResultsOfAnActiveSearch() async {
    let store = await observing()
    #expect(await results(for: "halal chicken", in: store).isEmpty)
    let chicken = restaurant("4", "Itaewon Halal Chicken")
    listings.send(.success([murree, andalus, plov, chicken]))
    await store.receive(RestaurantFeature.Action.restaurantsUpdated)
    #expect(store.state.results == [chicken])
    listings.send(.success([murree, andalus, plov]))
    await store.receive(RestaurantFeature.Action.restaurantsUpdated)
    #expect(store.state.results.isEmpty)
    await store.skipInFlightEffects()
  }

  @Test func aFailureIsShownThenRetryRecovers() async {
    let store = await observing()
    listings.send(.failure(.connectionLost("wifi off")))
    await store.receive(.restaurantsUpdated(.failure(.connectionLost("wifi off")))) {
      $0.failure = .connectionLost("wifi off")
      $0.isObserving = false
    }
    #expect(store.state.restaurants.count == 3)  // what was shown stays
    await store.send(.retryButtonTapped)
    await store.receive(.startObserving) { $0.isObserving = true }
    listings.send(.success([plov]))
    await store.receive(.restaurantsUpdated(.success([plov]))) {
      $0.restaurants = [plov]
      $0.applyQuery($0.query)
    }
    #expect(store.state.failure == nil)
    #expect(listings.streams.withLock { $0.count } == 2)
    await store.skipInFlightEffects()
  }

  @Test func stoppingCancelsTheStreamAndNothingArrivesAfter() async {
    let store = makeStore()
    await store.send(.startObserving) { $0.isObserving = true }
    listings.send(.success([murree]))
    await store.receive(.restaurantsUpdated(.success([murree]))) {
      $0.restaurants = [murree]
      $0.applyQuery("")
    }
    await store.send(.stopObserving) { $0.isObserving = false }
    // Bounded: a regression fails the test instead of spinning forever.
    await pollUntil { listings.terminations.withLock({ $0 }) > 0 }
    listings.send(.success([murree, plov]))  // a late update: nobody listens
    await store.finish()  // fails if any action arrived or the stream still ran
    #expect(store.state.restaurants.count == 1)
  }

  @Test func aDetailIsPresentedFollowsUpdatesAndClosesItself() async {
    let store = await observing()
    store.exhaustivity = .on
    await store.send(.restaurantTapped("2")) {
      $0.detail = RestaurantDetailFeature.State(restaurant: andalus)
    }
    var renamed = andalus
    renamed.name = "Café Andalus Seoul"
    listings.send(.success([murree, renamed, plov]))
    await store.receive(.restaurantsUpdated(.success([murree, renamed, plov]))) {
      $0.restaurants[id: "2"] = renamed
      $0.detail?.restaurant = renamed
    }
    listings.send(.success([murree, plov]))
    await store.receive(.restaurantsUpdated(.success([murree, plov]))) {
      $0.restaurants.remove(id: "2")
      $0.applyQuery($0.query)
      $0.detail?.isRemoved = true
    }
    await store.send(.detail(.presented(.closeButtonTapped)))
    await store.receive(.detail(.dismiss)) { $0.detail = nil }
    await store.skipInFlightEffects()
  }
}

@Suite(.timeLimit(.minutes(10)))
struct RestaurantClientTests {
  @Test func streamsTheShippedListingsThenReplaysTheChangeLog() async {
    let clock = TestClock()
    let stream = RestaurantClient.live(clock: clock).updates()
    var iterator = stream.makeAsyncIterator()
    guard case let .success(first)? = await iterator.next() else {
      Issue.record("no first snapshot")
      return
    }
    #expect(first.count == 62)
    #expect(Set(first.map(\.id)).count == 62)
    #expect(Set(first.map(\.district)).count == 8)
    func next() async -> Result<[Restaurant], RestaurantFailure>? {
      await pollUntil { clock.sleeperCount > 0 }
      await clock.advance(by: .milliseconds(40))
      return await iterator.next()
    }
    guard case let .success(added)? = await next() else {
      Issue.record("no addition")
      return
    }
    #expect(added.count == 63 && added.last?.name == "Itaewon Halal Chicken")
    guard case let .success(edited)? = await next() else {
      Issue.record("no edit")
      return
    }
    #expect(edited.first?.name.hasSuffix("(renovated)") == true)
    guard case let .success(removed)? = await next() else {
      Issue.record("no removal")
      return
    }
    #expect(removed.count == 62)
    let lost: Result<[Restaurant], RestaurantFailure> = .failure(
      .connectionLost("connection to the listings lost"))
    let last = await next()
    #expect(last == lost)
    #expect(await iterator.next() == nil)  // the stream ends after a failure
  }

  @Test func missingOrMalformedDataIsATypedFailure() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salam-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let badCertification = folder.appendingPathComponent("bad.json")
    try Data(
      #"[{"id":"x","name":"X","category":"K","address":"a","addressKorean":"b","district":"d","certifiedState":"Trust me","latitude":1,"longitude":1}]"#
        .utf8
    ).write(to: badCertification)
    let notJSON = folder.appendingPathComponent("garbage.json")
    try Data("<html>".utf8).write(to: notJSON)

    func firstUpdate(_ file: URL) async -> Result<[Restaurant], RestaurantFailure>? {
      var iterator = RestaurantClient.live(dataFile: file, changes: .none, clock: TestClock())
        .updates().makeAsyncIterator()
      return await iterator.next()
    }
    #expect(
      await firstUpdate(folder.appendingPathComponent("missing.json"))
        == .failure(.unavailable("cannot read missing.json")))
    #expect(
      await firstUpdate(notJSON)
        == .failure(.malformed("garbage.json is not a list of restaurants")))
    #expect(
      await firstUpdate(badCertification)
        == .failure(.malformed("'Trust me' is not a certification (restaurant x)")))
  }

  @MainActor
  @Test func theScriptedScenarioPasses() async {
    let failures = await SeoulSalamScenario(clock: ImmediateClock(), print: { _ in }).run()
    #expect(failures.isEmpty)
  }
}
