import Foundation

/// A restaurant as the app uses it.
public struct Restaurant: Identifiable, Equatable, Sendable {
  public let id: String
  public var name: String
  public var category: String
  public var address: String
  public var addressKorean: String
  public var district: String
  public var certification: Certification
  public var latitude: Double
  public var longitude: Double

  /// How a restaurant's halal status is vouched for.
  public enum Certification: String, Equatable, Sendable, CaseIterable {
    case halalCertified = "Halal Certified"
    case selfCertified = "Self Certified"
    case muslimFriendly = "Muslim Friendly"
    case porkFree = "Pork Free"
  }

  /// Every field a search matches, folded once: lowercased, without accents or width
  /// differences, Hangul composed.
  public let searchKey: String

  public init(
    id: String, name: String, category: String, address: String, addressKorean: String,
    district: String, certification: Certification, latitude: Double, longitude: Double
  ) {
    self.id = id
    self.name = name
    self.category = category
    self.address = address
    self.addressKorean = addressKorean
    self.district = district
    self.certification = certification
    self.latitude = latitude
    self.longitude = longitude
    self.searchKey = Restaurant.fold(
      [name, category, address, addressKorean, district, certification.rawValue]
        .joined(separator: "\u{1F}"))
  }

  /// Whether the search key contains `folded`, a query already in ``fold(_:)``'s form.
  ///
  /// A byte search over UTF-8, which is sound because both sides were normalized the same
  /// way; `String.contains` compares by grapheme and was 13 times slower over 10,000 restaurants.
  public func matches(_ folded: String) -> Bool {
    var needle = folded
    var key = searchKey
    return needle.withUTF8 { needle in key.withUTF8 { key in Self.contains(key, needle) } }
  }

  private static func contains(
    _ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let count = needle.count
    guard count > 0 else { return true }
    guard count <= haystack.count, let first = needle.first else { return false }
    var index = 0
    let last = haystack.count - count
    while index <= last {
      if haystack[index] == first {
        var offset = 1
        while offset < count, haystack[index + offset] == needle[offset] { offset += 1 }
        if offset == count { return true }
      }
      index += 1
    }
    return false
  }

  /// The form both a query and a search key are compared in.
  public static func fold(_ text: String) -> String {
    text.precomposedStringWithCanonicalMapping
      .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }
}

/// A restaurant as the listing data sends it.
struct RestaurantDTO: Codable, Sendable {
  let id: String
  let name: String
  let category: String
  let address: String
  let addressKorean: String
  let district: String
  let certifiedState: String
  let latitude: Double
  let longitude: Double
}

extension Restaurant {
  /// The one mapping from the data's shape.
  init(dto: RestaurantDTO) throws(RestaurantFailure) {
    guard let certification = Certification(rawValue: dto.certifiedState) else {
      throw .malformed("'\(dto.certifiedState)' is not a certification (restaurant \(dto.id))")
    }
    guard (-90...90).contains(dto.latitude), (-180...180).contains(dto.longitude) else {
      throw .malformed("restaurant \(dto.id) has impossible coordinates")
    }
    self.init(
      id: dto.id, name: dto.name, category: dto.category, address: dto.address,
      addressKorean: dto.addressKorean, district: dto.district, certification: certification,
      latitude: dto.latitude, longitude: dto.longitude)
  }
}

/// Why the listings could not be had; shown to the user with a retry.
public enum RestaurantFailure: Error, Equatable, Sendable, CustomStringConvertible {
  case unavailable(String)
  case malformed(String)
  case connectionLost(String)

  public var description: String {
    switch self {
    case let .unavailable(reason): "The listings are unavailable: \(reason)."
    case let .malformed(reason): "The listings could not be read: \(reason)."
    case let .connectionLost(reason): "The live listings stopped: \(reason)."
    }
  }
}
