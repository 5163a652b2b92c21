/// A key that carries its value's default, so that every `@Shared` of it is written without
/// one: declare the type and the default once, on the key.
///
/// ```swift
/// extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
///   static var syncUps: Self {
///     Self[.fileStorage(.documentsDirectory.appending(path: "sync-ups.json")), default: []]
///   }
/// }
///
/// @Shared(.syncUps) var syncUps: IdentifiedArrayOf<SyncUp>     // [] until something is saved
/// @Shared(.syncUps) var syncUps = [SyncUp.mock]                // a default of its own wins
/// ```
///
/// It is the same reference as its base key: `@Shared(.syncUps)` and
/// `@Shared(.fileStorage(url))` for that file are one value.
public struct SharedKeyDefault<Base: SharedKey>: SharedKey {
  /// The base key's value type.
  public typealias Value = Base.Value
  /// The key without its default.
  public let base: Base
  /// The default, evaluated when a reference is made and nothing is stored.
  public let defaultValue: @Sendable () -> Base.Value

  /// `key` with `defaultValue`; usually written `Self[key, default: value]` in a static
  /// property of a `SharedKey` extension.
  public init(_ key: Base, default defaultValue: @escaping @Sendable () -> Base.Value) {
    self.base = key
    self.defaultValue = defaultValue
  }

  /// `key` with a default: `Self[.fileStorage(url), default: []]`.
  public static subscript(
    _ key: Base, default defaultValue: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(key, default: defaultValue)
  }

  /// The base key's id.
  public var id: Base.ID { base.id }
  /// Loads through the base key.
  public func load(from storage: SharedStorage) throws -> Value? {
    try base.load(from: storage)
  }
  /// Saves through the base key.
  public func save(_ value: Value, to storage: SharedStorage) throws {
    try base.save(value, to: storage)
  }
  /// The base key's save interval.
  public var saveInterval: Duration { base.saveInterval }
  /// The base key's stored version.
  public func storedVersion(in storage: SharedStorage) -> AnyHashable? {
    base.storedVersion(in: storage)
  }
  /// Preserves through the base key.
  public func preserveUnreadable(in storage: SharedStorage) throws {
    try base.preserveUnreadable(in: storage)
  }
  /// Whether the base key saves.
  public var isPersistent: Bool { base.isPersistent }
}

extension SharedKeyDefault: CustomStringConvertible {
  /// The base key's description.
  public var description: String { String(describing: base) }
}

extension SharedKey {
  /// This key with a default: `FileStorageKey<[Item]>.Default`; see ``SharedKeyDefault``.
  public typealias Default = SharedKeyDefault<Self>
}

extension Shared {
  /// The reference `key` names, made from the stored value or, when nothing is stored, from
  /// the key's default.
  ///
  /// ```swift
  /// @Shared(.syncUps) var syncUps: IdentifiedArrayOf<SyncUp>
  /// ```
  public init<Base: SharedKey<Value>>(
    _ key: SharedKeyDefault<Base>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(wrappedValue: key.defaultValue(), key.base, fileID: fileID, line: line)
  }

  /// The reference `key` names, with a default of its own that replaces the key's.
  ///
  /// ```swift
  /// @Shared(.syncUps) var syncUps = [SyncUp.mock]
  /// ```
  public init<Base: SharedKey<Value>>(
    wrappedValue: @autoclosure () -> Value,
    _ key: SharedKeyDefault<Base>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(wrappedValue: wrappedValue(), key.base, fileID: fileID, line: line)
  }
}
