import Cascade
import CascadeExampleSupport
import Foundation

/// The app's small persisted settings: whether onboarding was completed, the tap count.
/// Live values keep them in UserDefaults or in a settings file the user can place.
public struct SettingsClient: Sendable {
  public var hasCompletedOnboarding: @Sendable () -> Bool
  public var setHasCompletedOnboarding: @Sendable (Bool) -> Void
  public var tapCount: @Sendable () -> Int
  public var setTapCount: @Sendable (Int) -> Void
  /// Why the saved settings could not be read, for the user (the app then starts from the
  /// defaults, and the unreadable file is kept), or `nil`.
  public var problem: @Sendable () -> String?

  public init(
    hasCompletedOnboarding: @escaping @Sendable () -> Bool,
    setHasCompletedOnboarding: @escaping @Sendable (Bool) -> Void,
    tapCount: @escaping @Sendable () -> Int,
    setTapCount: @escaping @Sendable (Int) -> Void,
    problem: @escaping @Sendable () -> String? = { nil }
  ) {
    self.hasCompletedOnboarding = hasCompletedOnboarding
    self.setHasCompletedOnboarding = setHasCompletedOnboarding
    self.tapCount = tapCount
    self.setTapCount = setTapCount
    self.problem = problem
  }
}

extension SettingsClient {
  enum Key {
    static let onboarding = "hasCompletedOnboarding"
    static let taps = "tapCount"
  }

  /// Settings in `UserDefaults` (a suite of its own, for tests). Each change is synchronized:
  /// on Linux, `UserDefaults` keeps changes in memory until then, and a process that exits
  /// without it loses them.
  public static func userDefaults(_ defaults: UserDefaults) -> Self {
    // `UserDefaults` is thread-safe; it is not marked `Sendable` on every platform.
    nonisolated(unsafe) let defaults = defaults
    return SettingsClient(
      hasCompletedOnboarding: { defaults.bool(forKey: Key.onboarding) },
      setHasCompletedOnboarding: {
        defaults.set($0, forKey: Key.onboarding)
        defaults.synchronize()
      },
      tapCount: { defaults.integer(forKey: Key.taps) },
      setTapCount: {
        defaults.set($0, forKey: Key.taps)
        defaults.synchronize()
      })
  }

  /// Settings in a JSON file, written atomically: a missing file is the defaults; a corrupt
  /// one is moved aside under a name of its own (`settings.unreadable-1.json`, then `-2`...),
  /// the defaults are used, and ``problem`` says so. When it cannot be moved aside it is left
  /// as it is and never overwritten: the settings are kept for this run only, and ``problem``
  /// says that instead.
  ///
  /// - Parameter moveAside: How an unreadable file is moved aside (tests make it fail).
  public static func file(
    _ url: URL,
    moveAside: @escaping @Sendable (URL) -> Result<URL, FileRescue.Failure> = FileRescue.moveAside
  ) -> Self {
    struct Stored: Codable {
      var hasCompletedOnboarding = false
      var tapCount = 0
    }
    struct Loaded {
      var stored: Stored
      /// What the user is told about the saved settings, if anything.
      var problem: String?
      /// Whether saving would overwrite a file that was not read.
      var saveBlocked = false
    }
    let cache = Locked<Loaded?>(nil)
    @Sendable func read() -> Loaded {
      guard FileManager.default.fileExists(atPath: url.path) else {
        return Loaded(stored: Stored())
      }
      if let data = try? Data(contentsOf: url),
        let decoded = try? JSONDecoder().decode(Stored.self, from: data)
      {
        return Loaded(stored: decoded)
      }
      switch moveAside(url) {
      case .success(let kept):
        return Loaded(
          stored: Stored(),
          problem: "Your settings could not be read, so the app started fresh. "
            + "The old file was kept as \(kept.lastPathComponent).")
      case .failure(let failure):
        return Loaded(
          stored: Stored(),
          problem: "Your settings could not be read, so the app started fresh. The old file "
            + "could not be moved aside (\(failure)), so it is left as it is and nothing is "
            + "saved this run.",
          saveBlocked: true)
      }
    }
    @Sendable func load() -> Loaded {
      if let cached = cache.withLock({ $0 }) { return cached }
      let loaded = read()
      return cache.withLock { cached in
        if let cached { return cached }
        cached = loaded
        return loaded
      }
    }
    @Sendable func update(_ change: (inout Stored) -> Void) {
      var loaded = load()
      change(&loaded.stored)
      let stored = loaded.stored
      cache.withLock { $0?.stored = stored }
      guard !loaded.saveBlocked, !DataDirectory.isLeaving else { return }
      do {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(stored).write(to: url, options: .atomic)
        SaveFailures.note(url, what: "the settings", failure: nil)
      } catch {
        let reason = fileError(error, writing: url)
        SaveFailures.note(url, what: "the settings", failure: reason)
        reportIssue("TapTap could not save its settings to \(url.path): \(reason).")
      }
    }
    return SettingsClient(
      hasCompletedOnboarding: { load().stored.hasCompletedOnboarding },
      setHasCompletedOnboarding: { value in update { $0.hasCompletedOnboarding = value } },
      tapCount: { load().stored.tapCount },
      setTapCount: { value in update { $0.tapCount = value } },
      problem: { load().problem })
  }

  /// Settings in memory, for previews and tests that want a working client.
  public static func inMemory(onboarded: Bool = false, taps: Int = 0) -> Self {
    let state = Locked((onboarded, taps))
    return SettingsClient(
      hasCompletedOnboarding: { state.withLock { $0.0 } },
      setHasCompletedOnboarding: { value in state.withLock { $0.0 = value } },
      tapCount: { state.withLock { $0.1 } },
      setTapCount: { value in state.withLock { $0.1 = value } })
  }
}

extension SettingsClient: DependencyKey {
  public static var liveValue: SettingsClient { .userDefaults(.standard) }
  public static let testValue = SettingsClient(
    hasCompletedOnboarding: unimplemented(
      "SettingsClient.hasCompletedOnboarding", placeholder: false),
    setHasCompletedOnboarding: unimplemented(
      "SettingsClient.setHasCompletedOnboarding", placeholder: ()),
    tapCount: unimplemented("SettingsClient.tapCount", placeholder: 0),
    setTapCount: unimplemented("SettingsClient.setTapCount", placeholder: ()))
  public static var previewValue: SettingsClient { .inMemory() }
}

extension DependencyValues {
  public var settings: SettingsClient {
    get { self[SettingsClient.self] }
    set { self[SettingsClient.self] = newValue }
  }
}
