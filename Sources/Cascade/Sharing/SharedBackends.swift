import Foundation

/// Files as a shared storage sees them: the disk, or a dictionary for tests.
protocol _SharedFiles: Sendable {
  func read(_ url: URL) throws -> Data?
  /// Replaces the file's contents in one step: a reader sees the old or the new contents,
  /// never a mix.
  func write(_ data: Data, to url: URL) throws
  func move(_ url: URL, to destination: URL) throws
  func version(of url: URL) -> AnyHashable?
}

struct _DiskFiles: _SharedFiles {
  func read(_ url: URL) throws -> Data? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    return try Data(contentsOf: url)
  }

  func write(_ data: Data, to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    // Written to a temporary file in the same folder, then renamed over the old one.
    try data.write(to: url, options: .atomic)
  }

  func move(_ url: URL, to destination: URL) throws {
    try FileManager.default.moveItem(at: url, to: destination)
  }

  func version(of url: URL) -> AnyHashable? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
      return nil
    }
    let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? 0
    return AnyHashable("\(modified)-\(size)-\(inode)")
  }
}

/// Files in memory: what tests get unless they ask for the disk.
final class _MemoryFiles: _SharedFiles {
  private struct Entry {
    var data: Data
    var version: Int
  }
  private let files = Guarded<(entries: [URL: Entry], nextVersion: Int)>(([:], 0))

  func read(_ url: URL) throws -> Data? { files.withLock { $0.entries[url]?.data } }

  func write(_ data: Data, to url: URL) throws {
    files.withLock {
      $0.nextVersion += 1
      $0.entries[url] = Entry(data: data, version: $0.nextVersion)
    }
  }

  func move(_ url: URL, to destination: URL) throws {
    try files.withLock {
      guard let entry = $0.entries.removeValue(forKey: url) else {
        throw CocoaError(.fileNoSuchFile)
      }
      $0.entries[destination] = entry
    }
  }

  func version(of url: URL) -> AnyHashable? {
    files.withLock { $0.entries[url].map { AnyHashable($0.version) } }
  }
}

/// User defaults as a shared storage sees them.
protocol _SharedDefaults: Sendable {
  func object(forKey key: String) -> Any?
  func set(_ object: Any?, forKey key: String)
  /// Writes what was set to disk. On Linux, `UserDefaults` keeps changes in memory until
  /// `synchronize()` is called, so a process that exits without it loses them.
  func synchronize()
}

/// `@unchecked Sendable`: `UserDefaults` is documented as thread-safe; its Swift conformance
/// is only marked unavailable because it is an open class.
struct _UserDefaultsStore: _SharedDefaults, @unchecked Sendable {
  let defaults: UserDefaults
  /// The suite's name; `nil` for `UserDefaults.standard`.
  let suiteName: String?

  func object(forKey key: String) -> Any? { defaults.object(forKey: key) }

  func set(_ object: Any?, forKey key: String) {
    if let object {
      defaults.set(object, forKey: key)
    } else {
      defaults.removeObject(forKey: key)
    }
  }

  func synchronize() {
    #if os(Linux)
      // CoreFoundation on Linux rewrites the suite's file in place: a process killed during
      // `synchronize()` leaves it empty or torn, and every default in it is lost. A suite's
      // values are written here instead, to a temporary file renamed over the old one.
      if let suiteName, (try? writeAtomically(suiteName)) != nil { return }
    #endif
    defaults.synchronize()
  }

  #if os(Linux)
    /// Where CoreFoundation keeps a suite: `$XDG_CONFIG_HOME/<suite>.plist`, or
    /// `~/.config/<suite>.plist`.
    private func writeAtomically(_ suite: String) throws {
      let environment = ProcessInfo.processInfo.environment
      let folder =
        environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
      let domain = defaults.persistentDomain(forName: suite) ?? [:]
      let data = try PropertyListSerialization.data(
        fromPropertyList: domain, format: .binary, options: 0)
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
      try data.write(
        to: URL(fileURLWithPath: folder).appendingPathComponent("\(suite).plist"), options: .atomic)
    }
  #endif
}

/// `@unchecked Sendable`: the values stored are property-list values (Bool, Int, Double,
/// String, Data), all immutable value types, and the dictionary is behind a lock.
final class _MemoryDefaults: _SharedDefaults, @unchecked Sendable {
  private let values = Guarded<[String: Any]>([:])

  func object(forKey key: String) -> Any? { values.withLock { $0[key] } }
  func set(_ object: Any?, forKey key: String) { values.withLock { $0[key] = object } }
  func synchronize() {}
}
