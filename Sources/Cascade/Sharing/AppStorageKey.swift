import Foundation

/// A shared value stored in user defaults under a key: `Bool`, `Int`, `Double`, `String`,
/// `Data`, `URL`, a `RawRepresentable` with an `Int` or `String` raw value, or an optional of
/// any of these (`nil` removes the default).
///
/// ```swift
/// @Shared(.appStorage("soundOn")) var soundOn = true
/// @Shared(.appStorage("grade")) var grade = Grade.high     // enum Grade: String
/// @Shared(.appStorage("lastSchool")) var lastSchool: String?
/// ```
///
/// A stored value of another type (written by an older version, say) leaves the default in
/// place with ``Shared/loadError`` set. A `URL` is stored as its absolute string. Changes
/// made to the defaults outside the `Shared` are loaded again; removing the default gives the
/// `Shared` back the default it was made with.
public struct AppStorageKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  /// The user-defaults key.
  public let key: String
  private let decode: @Sendable (Any) -> Value?
  private let encode: @Sendable (Value) -> Any?

  init(
    _ key: String, decode: @escaping @Sendable (Any) -> Value?,
    encode: @escaping @Sendable (Value) -> Any?
  ) {
    self.key = key
    self.decode = decode
    self.encode = encode
  }

  /// The user-defaults key: `Shared` values with one key (and one value type) are one value.
  public var id: String { key }

  /// The stored default, or `nil` when there is none; throws ``AppStorageTypeMismatch`` when it
  /// has another type.
  public func load(from storage: SharedStorage) throws -> Value? {
    guard let object = storage.defaultsObject(forKey: key) else { return nil }
    guard let value = decode(object) else {
      throw AppStorageTypeMismatch(
        key: key, stored: "\(type(of: object))", expected: "\(Value.self)")
    }
    return value
  }

  /// Sets the default to `value`; an optional `nil` removes it.
  public func save(_ value: Value, to storage: SharedStorage) throws {
    storage.setDefaultsObject(encode(value), forKey: key)
  }

  /// The stored default with its type, so that a change made outside the `Shared` is loaded
  /// again.
  public func storedVersion(in storage: SharedStorage) -> AnyHashable? {
    storage.defaultsObject(forKey: key).map { AnyHashable("\(type(of: $0)):\($0)") }
  }

  /// `appStorage("soundOn")`.
  public var description: String { "appStorage(\"\(key)\")" }
}

/// The stored default has another type than the `Shared` reading it.
public struct AppStorageTypeMismatch: Error, CustomStringConvertible {
  /// The user-defaults key.
  public let key: String
  /// The type of the stored default.
  public let stored: String
  /// The type the `Shared` holds.
  public let expected: String
  /// `user default 'soundOn' holds a String, not a Bool`.
  public var description: String {
    "user default '\(key)' holds a \(stored), not a \(expected)"
  }
}

/// How one property-list type is read from a stored object.
private enum Plist {
  static func double(_ object: Any) -> Double? {
    (object as? Double) ?? (object as? Int).map(Double.init)
  }
  static func url(_ object: Any) -> URL? { (object as? String).flatMap(URL.init(string:)) }
}

extension AppStorageKey {
  fileprivate static func plain(_ key: String, _ decode: @escaping @Sendable (Any) -> Value?)
    -> Self
  where Value: Sendable {
    Self(key, decode: decode, encode: { $0 })
  }

  fileprivate static func optional<Wrapped: Sendable>(
    _ key: String, _ decode: @escaping @Sendable (Any) -> Wrapped?,
    _ encode: @escaping @Sendable (Wrapped) -> Any = { $0 }
  ) -> Self where Value == Wrapped? {
    Self(key, decode: { decode($0).map { .some($0) } }, encode: { $0.map(encode) })
  }
}

extension SharedKey {
  /// A `Bool` in user defaults; see ``AppStorageKey``.
  ///
  /// ```swift
  /// @Shared(.appStorage("soundOn")) var soundOn = true
  /// ```
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Bool> {
    .plain(key) { $0 as? Bool }
  }

  /// An `Int` in user defaults.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Int> {
    .plain(key) { $0 as? Int }
  }

  /// A `Double` in user defaults.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Double> {
    .plain(key, Plist.double)
  }

  /// A `String` in user defaults.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<String> {
    .plain(key) { $0 as? String }
  }

  /// `Data` in user defaults.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Data> {
    .plain(key) { $0 as? Data }
  }

  /// A `URL` in user defaults, stored as its absolute string.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<URL> {
    AppStorageKey(key, decode: Plist.url, encode: { $0.absoluteString })
  }

  /// A `RawRepresentable` with an `Int` raw value in user defaults.
  public static func appStorage<V: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<V>, V.RawValue == Int {
    AppStorageKey(key, decode: { ($0 as? Int).flatMap(V.init(rawValue:)) }, encode: { $0.rawValue })
  }

  /// A `RawRepresentable` with a `String` raw value in user defaults.
  public static func appStorage<V: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<V>, V.RawValue == String {
    AppStorageKey(
      key, decode: { ($0 as? String).flatMap(V.init(rawValue:)) }, encode: { $0.rawValue })
  }

  /// An optional `Bool` in user defaults; `nil` removes it.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Bool?> {
    .optional(key) { $0 as? Bool }
  }

  /// An optional `Int` in user defaults; `nil` removes it.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Int?> {
    .optional(key) { $0 as? Int }
  }

  /// An optional `Double` in user defaults; `nil` removes it.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Double?> {
    .optional(key, Plist.double)
  }

  /// An optional `String` in user defaults; `nil` removes it.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<String?> {
    .optional(key) { $0 as? String }
  }

  /// Optional `Data` in user defaults; `nil` removes it.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Data?> {
    .optional(key) { $0 as? Data }
  }

  /// An optional `URL` in user defaults; `nil` removes it.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<URL?> {
    .optional(key, Plist.url) { $0.absoluteString }
  }

  /// An optional `RawRepresentable` with an `Int` raw value; `nil` removes it.
  public static func appStorage<V: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<V?>, V.RawValue == Int {
    .optional(key, { ($0 as? Int).flatMap(V.init(rawValue:)) }, { $0.rawValue })
  }

  /// An optional `RawRepresentable` with a `String` raw value; `nil` removes it.
  public static func appStorage<V: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<V?>, V.RawValue == String {
    .optional(key, { ($0 as? String).flatMap(V.init(rawValue:)) }, { $0.rawValue })
  }
}
