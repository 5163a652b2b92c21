/// Where a ``Shared`` value lives and how it is loaded and saved: in memory by name
/// (``InMemoryKey``), in a JSON file (``FileStorageKey``), in user defaults
/// (``AppStorageKey``), or anywhere a type of yours conforming to this protocol says.
///
/// Every `Shared` created with equal keys in the same ``SharedStorage`` is one reference: the
/// first one loads the value, the others join it.
///
/// ```swift
/// struct SettingsKey: SharedKey {
///   typealias Value = Settings
///   var id: String { "settings" }
///   func load(from storage: SharedStorage) throws -> Settings? {
///     try storage.readFile(at: .settingsFile).map { try JSONDecoder().decode(Settings.self, from: $0) }
///   }
///   func save(_ value: Settings, to storage: SharedStorage) throws {
///     try storage.writeFile(JSONEncoder().encode(value), to: .settingsFile)
///   }
/// }
///
/// @Shared(SettingsKey()) var settings = Settings()
/// ```
public protocol SharedKey<Value>: Sendable {
  /// The type of the shared value.
  associatedtype Value: Sendable
  /// What makes two keys the same place.
  associatedtype ID: Hashable & Sendable

  /// Keys with equal ids (and the same type) are one shared reference in a storage.
  var id: ID { get }

  /// The stored value, or `nil` when nothing is stored yet (the `Shared` then uses its
  /// default). Throw when something is stored but cannot be read: the `Shared` keeps the
  /// default and shows the error in ``Shared/loadError``.
  func load(from storage: SharedStorage) throws -> Value?

  /// Stores `value`. Called after changes, at most once per ``saveInterval``, and when the
  /// storage is flushed.
  func save(_ value: Value, to storage: SharedStorage) throws

  /// The shortest time between two saves; changes in between are saved together, at the end
  /// of the interval or when the storage is flushed (at the latest when the process exits).
  /// `.zero` saves on every change. The default is `.zero`.
  var saveInterval: Duration { get }

  /// A fingerprint of what is stored now (for a file, its modification date and size), or
  /// `nil` if nothing is. When it changes and this process did not make the change, the
  /// value is loaded again. The default, `nil`, never reloads.
  func storedVersion(in storage: SharedStorage) -> AnyHashable?

  /// Called once before the first save that follows a failed load, so that what could not be
  /// read is kept somewhere rather than overwritten. The default does nothing.
  func preserveUnreadable(in storage: SharedStorage) throws

  /// Whether the key saves at all; `false` keeps the value in memory only, in its storage.
  var isPersistent: Bool { get }
}

extension SharedKey {
  /// `.zero`: every change is saved.
  public var saveInterval: Duration { .zero }
  /// `nil`: the value is never loaded again.
  public func storedVersion(in storage: SharedStorage) -> AnyHashable? { nil }
  /// Does nothing.
  public func preserveUnreadable(in storage: SharedStorage) throws {}
  /// `true`: the key saves.
  public var isPersistent: Bool { true }
}

extension SharedKey where ID == Self, Self: Hashable {
  /// The key itself, for a `Hashable` key type.
  public var id: Self { self }
}

/// The error a ``Shared`` value shows when its stored value could not be loaded.
public struct SharedLoadError: Error, CustomStringConvertible, Sendable {
  /// The key, described.
  public let key: String
  /// What went wrong.
  public let underlying: any Error

  /// Names the key and the error, and says that the default is used instead.
  public var description: String {
    "The shared value at \(key) could not be loaded (the default is used instead): \(underlying)"
  }
}
