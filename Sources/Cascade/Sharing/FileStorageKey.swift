import Foundation

/// A shared value saved as JSON in a file: written atomically (a crash mid-save leaves the
/// old file or the new one, never half of one), at most once per save interval, and always
/// before the process exits normally.
///
/// A file that cannot be decoded leaves the default in place with ``Shared/loadError`` set;
/// the first save after that moves the unreadable file aside (`name.unreadable-<date>.json`)
/// instead of overwriting it. A change to the file made outside the app is loaded again;
/// deleting the file gives the `Shared` back its default.
///
/// ```swift
/// let appData = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
/// @Shared(.fileStorage(appData.appending(path: "ranking.json")))
/// var ranking = Ranking()
/// ```
public struct FileStorageKey<Value: Codable & Sendable>: SharedKey, CustomStringConvertible {
  /// The file.
  public let url: URL
  /// The shortest time between two writes of the file.
  public let saveInterval: Duration

  /// - Parameters:
  ///   - url: The file; its folder is created when first saved.
  ///   - saveInterval: The shortest time between two writes of the file.
  public init(url: URL, saveInterval: Duration = .seconds(1)) {
    self.url = url
    self.saveInterval = saveInterval
  }

  /// The file's standardized URL: `Shared` values with keys for one file are one value.
  public var id: URL { url.standardizedFileURL }

  /// The decoded file, or `nil` when there is no file; throws when the file cannot be decoded.
  public func load(from storage: SharedStorage) throws -> Value? {
    guard let data = try storage.readFile(at: url) else { return nil }
    return try JSONDecoder().decode(Value.self, from: data)
  }

  /// Writes `value` to the file as pretty-printed JSON with sorted keys.
  public func save(_ value: Value, to storage: SharedStorage) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try storage.writeFile(encoder.encode(value), to: url)
  }

  /// The file's modification date and size, or `nil` when there is no file.
  public func storedVersion(in storage: SharedStorage) -> AnyHashable? {
    storage.fileVersion(at: url)
  }

  /// Moves the unreadable file aside, next to it, as `name.unreadable-<milliseconds since
  /// 1970>.json`.
  public func preserveUnreadable(in storage: SharedStorage) throws {
    guard storage.fileVersion(at: url) != nil else { return }
    let stamp = Int(Date().timeIntervalSince1970 * 1000)
    let name = url.deletingPathExtension().lastPathComponent
    let ext = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
    try storage.moveFile(
      at: url,
      to: url.deletingLastPathComponent().appending(path: "\(name).unreadable-\(stamp)\(ext)"))
  }

  /// `fileStorage(/path/to/ranking.json)`.
  public var description: String { "fileStorage(\(url.path))" }
}

extension SharedKey {
  /// A value saved as JSON in the file at `url`; see ``FileStorageKey``.
  ///
  /// ```swift
  /// @Shared(.fileStorage(dataFolder.appending(path: "ranking.json"))) var ranking = Ranking()
  /// ```
  public static func fileStorage<V>(
    _ url: URL, saveInterval: Duration = .seconds(1)
  ) -> Self where Self == FileStorageKey<V> {
    FileStorageKey(url: url, saveInterval: saveInterval)
  }
}
