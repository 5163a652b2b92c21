import Cascade
import Foundation

/// The restaurant listings, as a live stream of snapshots like a database listener: every
/// change sends the whole list again, or a failure.
public struct RestaurantClient: Sendable {
  public var updates: @Sendable () -> AsyncStream<Result<[Restaurant], RestaurantFailure>>

  public init(
    updates: @escaping @Sendable () -> AsyncStream<Result<[Restaurant], RestaurantFailure>>
  ) {
    self.updates = updates
  }
}

/// One entry of a change log replayed over time.
struct ChangeDTO: Codable {
  enum Kind: String, Codable { case added, edited, removed, outage }
  let afterMilliseconds: Int
  let kind: Kind
  let restaurant: RestaurantDTO?
  let id: String?
  let reason: String?
}

extension RestaurantClient {
  /// Which change log the live listings replay.
  public enum ChangeLog: Sendable {
    /// The shipped one: an addition, an edit, a removal, then an outage.
    case shipped
    /// None: the listings never change.
    case none
    /// A change log file of your own.
    case file(URL)
  }

  /// Streams the listings in `dataFile` (the shipped data set by default), then replays
  /// `changes` on `clock`: additions, edits, removals, and outages that end the stream with a
  /// failure.
  public static func live(
    dataFile: URL? = nil,
    changes: ChangeLog = .shipped,
    clock: any Clock<Duration>
  ) -> Self {
    let changesFile: URL? =
      switch changes {
      case .shipped: Bundle.module.url(forResource: "changes", withExtension: "json")
      case .none: nil
      case let .file(url): url
      }
    return RestaurantClient {
      AsyncStream { continuation in
        let task = Task {
          do throws(RestaurantFailure) {
            var listing = try loadListing(dataFile)
            continuation.yield(.success(listing))
            guard let changesFile else { return }
            for change in try loadChanges(changesFile) {
              try? await clock.sleep(for: .milliseconds(change.afterMilliseconds))
              guard !Task.isCancelled else { return }
              switch change.kind {
              case .added, .edited:
                guard let dto = change.restaurant else { continue }
                let restaurant = try Restaurant(dto: dto)
                if let index = listing.firstIndex(where: { $0.id == restaurant.id }) {
                  listing[index] = restaurant
                } else {
                  listing.append(restaurant)
                }
              case .removed:
                listing.removeAll { $0.id == change.id }
              case .outage:
                throw .connectionLost(change.reason ?? "no reason given")
              }
              continuation.yield(.success(listing))
            }
            // A listener stays open until its observer stops.
            while !Task.isCancelled { try? await clock.sleep(for: .seconds(60)) }
          } catch {
            continuation.yield(.failure(error))
            continuation.finish()
          }
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
  }

  static func loadListing(_ file: URL?) throws(RestaurantFailure) -> [Restaurant] {
    guard let url = file ?? Bundle.module.url(forResource: "restaurants", withExtension: "json")
    else { throw .unavailable("no data set is shipped") }
    guard let data = try? Data(contentsOf: url) else {
      throw .unavailable("cannot read \(url.lastPathComponent)")
    }
    guard let dtos = try? JSONDecoder().decode([RestaurantDTO].self, from: data) else {
      throw .malformed("\(url.lastPathComponent) is not a list of restaurants")
    }
    var restaurants: [Restaurant] = []
    for dto in dtos { restaurants.append(try Restaurant(dto: dto)) }
    return restaurants
  }

  static func loadChanges(_ url: URL) throws(RestaurantFailure) -> [ChangeDTO] {
    guard let data = try? Data(contentsOf: url),
      let changes = try? JSONDecoder().decode([ChangeDTO].self, from: data)
    else { throw .malformed("\(url.lastPathComponent) is not a change log") }
    return changes
  }
}

extension RestaurantClient: DependencyKey {
  public static var liveValue: RestaurantClient { .live(clock: ContinuousClock()) }
  public static let testValue = RestaurantClient {
    reportUnimplemented("RestaurantClient.updates")
    return AsyncStream { $0.finish() }
  }
  public static var previewValue: RestaurantClient {
    .live(changes: .none, clock: ContinuousClock())
  }
}

extension DependencyValues {
  public var restaurants: RestaurantClient {
    get { self[RestaurantClient.self] }
    set { self[RestaurantClient.self] = newValue }
  }
}
