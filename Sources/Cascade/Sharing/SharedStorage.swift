import Foundation

/// Where keyed ``Shared`` values live: the files and user defaults their keys read and write,
/// and the references already made, so that equal keys give one reference.
///
/// The app uses ``live`` (the disk and `UserDefaults.standard`). A test gets storage of its
/// own, in memory, so tests never see each other's values and never touch real files or
/// defaults; a test that wants the disk says so:
///
/// ```swift
/// @Test func rankingSurvivesARelaunch() throws {
///   let folder = FileManager.default.temporaryDirectory.appending(path: UUID().uuidString)
///   let first = SharedStorage.disk()
///   withDependencies { $0.sharedStorage = first } operation: {
///     @Shared(.fileStorage(folder.appending(path: "ranking.json"))) var ranking = Ranking()
///     $ranking.withLock { $0.touches["Seoul High"] = 3 }
///   }
///   first.flush()
///   // A fresh storage reads the file again, like a relaunched app.
/// }
/// ```
public final class SharedStorage: Sendable {
  let files: any _SharedFiles
  let defaults: any _SharedDefaults
  /// Whether keys' save intervals apply; storage for tests saves on every change.
  let throttlesSaves: Bool
  private let references = Guarded<[ReferenceKey: Reference]>([:])
  private let pending = Guarded<[ObjectIdentifier: any _AnySharedPersistence]>([:])
  /// Serializes making references, so that two tasks asking for one key get one reference.
  /// Recursive: a default value may itself be made from another keyed `Shared`.
  private let creation = NSRecursiveLock()

  /// `@unchecked Sendable`: `id` wraps a `SharedKey.ID`, which is `Hashable & Sendable`.
  private struct ReferenceKey: Hashable, @unchecked Sendable {
    let keyType: ObjectIdentifier
    let id: AnyHashable
  }

  /// In-memory values are held strongly (they exist nowhere else); persisted ones weakly
  /// (they can be loaded again).
  ///
  /// `@unchecked Sendable`: the objects are shared roots and their persistence, all `Sendable`;
  /// they are typed `AnyObject` because roots of different value types live side by side.
  private enum Reference: @unchecked Sendable {
    case strong(AnyObject)
    case weak(Weak)

    var object: AnyObject? {
      switch self {
      case let .strong(object): object
      case let .weak(weak): weak.object
      }
    }
  }

  private struct Weak {
    weak var object: AnyObject?
    weak var persistence: (any _AnySharedPersistence)?
  }

  init(
    files: any _SharedFiles, defaults: any _SharedDefaults, throttlesSaves: Bool,
    watchInterval: Duration?
  ) {
    self.files = files
    self.defaults = defaults
    self.throttlesSaves = throttlesSaves
    _ = Self.flushAtExit
    if let watchInterval { startWatching(every: watchInterval) }
  }

  /// The disk and `UserDefaults.standard`; saves throttled by each key's interval and flushed
  /// at exit; files and defaults checked for outside changes every second.
  public static let live = SharedStorage(
    files: _DiskFiles(), defaults: _UserDefaultsStore(defaults: .standard, suiteName: nil),
    throttlesSaves: true, watchInterval: .seconds(1))

  /// Files and defaults in memory, saved on every change: what each test gets by default.
  ///
  /// ```swift
  /// let storage = SharedStorage.inMemory()
  /// ```
  public static func inMemory() -> SharedStorage {
    SharedStorage(
      files: _MemoryFiles(), defaults: _MemoryDefaults(), throttlesSaves: false,
      watchInterval: nil)
  }

  /// The real disk, and user defaults in the suite you name (a suite of a test's own, say)
  /// or `UserDefaults.standard`.
  ///
  /// ```swift
  /// let storage = SharedStorage.disk(defaultsSuite: "tests-\(UUID())", watchInterval: nil)
  /// ```
  ///
  /// Defaults reach the disk within a second of a change, and when the storage is flushed or
  /// the process exits. On Linux a suite's file is replaced atomically, so a crash never
  /// loses what was saved; `UserDefaults.standard` is saved by CoreFoundation, which on Linux
  /// rewrites its file in place (a process killed during that write loses it): use a suite
  /// where that matters.
  ///
  /// - Parameters:
  ///   - defaultsSuite: The `UserDefaults` suite for ``AppStorageKey`` values; `nil` for
  ///     `UserDefaults.standard`.
  ///   - throttlesSaves: Whether keys' save intervals apply (else every change is saved).
  ///   - watchInterval: How often files and defaults are checked for outside changes; `nil`
  ///     checks only when ``checkForExternalChanges()`` is called.
  public static func disk(
    defaultsSuite: String? = nil, throttlesSaves: Bool = true, watchInterval: Duration? = nil
  ) -> SharedStorage {
    let defaults = defaultsSuite.flatMap(UserDefaults.init(suiteName:)) ?? .standard
    return SharedStorage(
      files: _DiskFiles(),
      defaults: _UserDefaultsStore(defaults: defaults, suiteName: defaultsSuite),
      throttlesSaves: throttlesSaves, watchInterval: watchInterval)
  }

  /// The storage keyed `Shared` values made here use: the one set with
  /// `withDependencies { $0.sharedStorage = ... }` if any, else ``live`` in the app, the
  /// running test's own in tests.
  public static var current: SharedStorage { DependencyValues._current.sharedStorage }

  // MARK: Files and defaults, for keys

  /// The contents of the file at `url`, or `nil` if there is none.
  public func readFile(at url: URL) throws -> Data? { try files.read(url) }

  /// Replaces the file at `url` atomically (a reader never sees half of it), creating its
  /// folder if needed.
  public func writeFile(_ data: Data, to url: URL) throws { try files.write(data, to: url) }

  /// Moves a file, for keeping one that could not be read.
  public func moveFile(at url: URL, to destination: URL) throws {
    try files.move(url, to: destination)
  }

  /// A fingerprint of the file at `url` that changes when it is written; `nil` if there is none.
  public func fileVersion(at url: URL) -> AnyHashable? { files.version(of: url) }

  /// The user-defaults value for `key`.
  public func defaultsObject(forKey key: String) -> Any? { defaults.object(forKey: key) }

  /// Sets (or, with `nil`, removes) the user-defaults value for `key`. Every reader in the
  /// process sees it at once; it reaches the disk within a second (at once when saves are not
  /// throttled), and at the latest when the storage is flushed or the process exits.
  public func setDefaultsObject(_ object: Any?, forKey key: String) {
    defaults.set(object, forKey: key)
    guard throttlesSaves else {
      defaults.synchronize()
      return
    }
    let startTimer = defaultsNeedSynchronizing.withLock { needed in
      defer { needed = true }
      return !needed
    }
    guard startTimer else { return }
    markForFlushAtExit()
    Task.detached { [weak self] in
      try? await Task.sleep(for: .seconds(1))
      self?.synchronizeDefaults()
    }
  }

  private let defaultsNeedSynchronizing = Guarded(false)

  private func synchronizeDefaults() {
    let needed = defaultsNeedSynchronizing.withLock { needed in
      defer { needed = false }
      return needed
    }
    if needed { defaults.synchronize() }
  }

  // MARK: Saving and watching

  /// Saves every change still waiting for its key's save interval. Runs by itself when the
  /// process exits normally.
  ///
  /// ```swift
  /// SharedStorage.live.flush()
  /// ```
  public func flush() {
    let waiting = pending.withLock { pending in
      defer { pending.removeAll() }
      return Array(pending.values)
    }
    for persistence in waiting { persistence.flush() }
    synchronizeDefaults()
  }

  /// Loads again every persisted value whose file or default changed outside this process
  /// (or outside its `Shared` values). ``live`` does this every second by itself.
  public func checkForExternalChanges() {
    let persisted = references.withLock { references in
      references.values.compactMap { reference -> (any _AnySharedPersistence)? in
        if case let .weak(weak) = reference { return weak.persistence }
        return nil
      }
    }
    for persistence in persisted { persistence.reloadIfChanged() }
  }

  func registerPending(_ persistence: any _AnySharedPersistence) {
    pending.withLock { $0[ObjectIdentifier(persistence)] = persistence }
    markForFlushAtExit()
  }

  private func markForFlushAtExit() {
    Self.storagesWithPendingSaves.withLock {
      $0[ObjectIdentifier(self)] = WeakStorage(storage: self)
    }
  }

  private func startWatching(every interval: Duration) {
    Task.detached { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        guard let self else { return }
        self.checkForExternalChanges()
      }
    }
  }

  private struct WeakStorage {
    weak var storage: SharedStorage?
  }

  private static let storagesWithPendingSaves = Guarded<[ObjectIdentifier: WeakStorage]>([:])

  private static let flushAtExit: Void = {
    atexit { SharedStorage.flushAll() }
  }()

  /// Flushes every storage with a save waiting: at exit, and for tests of that.
  package static func flushAll() {
    let storages = storagesWithPendingSaves.withLock { storages in
      defer { storages.removeAll() }
      return storages.values.compactMap(\.storage)
    }
    for storage in storages { storage.flush() }
  }

  // MARK: References

  /// The reference for `key`: the existing one, or a new one loaded from storage (`fallback`
  /// when nothing is stored or it cannot be read).
  func root<Key: SharedKey>(
    for key: Key, fallback: () -> Key.Value, fileID: StaticString, line: UInt
  ) -> _SharedRoot<Key.Value> {
    let referenceKey = ReferenceKey(keyType: ObjectIdentifier(Key.self), id: AnyHashable(key.id))
    creation.lock()
    defer { creation.unlock() }
    if let existing = references.withLock({ $0[referenceKey]?.object }) {
      // Same key type and id: same value type.
      return unsafeDowncast(existing, to: _SharedRoot<Key.Value>.self)
    }
    guard key.isPersistent else {
      let root = _SharedRoot(value: fallback(), keyDescription: "\(key)")
      references.withLock { $0[referenceKey] = .strong(root) }
      return root
    }
    let persistence = _SharedPersistence(key: key, storage: self, fileID: fileID, line: line)
    let root = _SharedRoot(
      value: persistence.initialValue(fallback), persistence: persistence,
      keyDescription: "\(key)")
    references.withLock { references in
      references = references.filter { $0.value.object != nil }
      references[referenceKey] = .weak(Weak(object: root, persistence: persistence))
    }
    return root
  }
}

extension DependencyValues {
  /// Where keyed ``Shared`` values live; see ``SharedStorage/current``.
  ///
  /// ```swift
  /// withDependencies { $0.sharedStorage = .disk() } operation: {
  ///   @Shared(.fileStorage(url)) var ranking = Ranking()
  /// }
  /// ```
  public var sharedStorage: SharedStorage {
    get { self[SharedStorageOverride.self].storage ?? SharedStorage.defaultStorage(for: context) }
    set { self[SharedStorageOverride.self] = SharedStorageOverride(storage: newValue) }
  }
}

/// An explicitly chosen storage, if any; without one the context decides.
private struct SharedStorageOverride: DependencyKey {
  var storage: SharedStorage?
  static let liveValue = SharedStorageOverride(storage: nil)
  static let testValue = SharedStorageOverride(storage: nil)
}

extension SharedStorage {
  /// For tests run without CascadeTesting, and previews: in memory, one per process.
  private static let processInMemory = SharedStorage.inMemory()

  static func defaultStorage(for context: DependencyContext) -> SharedStorage {
    switch context {
    case .live: return .live
    case .preview: return processInMemory
    case .test: return _TestSupport.hooks?.sharedStorageForCurrentTest() ?? processInMemory
    }
  }
}
