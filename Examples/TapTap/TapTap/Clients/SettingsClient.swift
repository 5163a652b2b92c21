import Cascade
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
  /// one is moved aside (never overwritten), the defaults are used, and ``problem`` says so.
  public static func file(_ url: URL) -> Self {
    struct Stored: Codable {
      var hasCompletedOnboarding = false
      var tapCount = 0
    }
    let cache = Guarded<Stored?>(nil)
    let problem = Guarded<String?>(nil)
    @Sendable func load() -> Stored {
      cache.withLock { cached in
        if let cached { return cached }
        var stored = Stored()
        if let data = try? Data(contentsOf: url) {
          if let decoded = try? JSONDecoder().decode(Stored.self, from: data) {
            stored = decoded
          } else {
            let aside = url.deletingPathExtension()
              .appendingPathExtension("unreadable-\(Int(Date().timeIntervalSince1970)).json")
            try? FileManager.default.moveItem(at: url, to: aside)
            problem.withLock {
              $0 =
                "Your settings could not be read, so the app started fresh. "
                + "The old file was kept as \(aside.lastPathComponent)."
            }
          }
        }
        cached = stored
        return stored
      }
    }
    @Sendable func update(_ change: (inout Stored) -> Void) {
      var stored = load()
      change(&stored)
      cache.withLock { $0 = stored }
      do {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(stored).write(to: url, options: .atomic)
      } catch {
        reportIssue("TapTap could not save its settings to \(url.path): \(error)")
      }
    }
    return SettingsClient(
      hasCompletedOnboarding: { load().hasCompletedOnboarding },
      setHasCompletedOnboarding: { value in update { $0.hasCompletedOnboarding = value } },
      tapCount: { load().tapCount },
      setTapCount: { value in update { $0.tapCount = value } },
      problem: {
        _ = load()
        return problem.withLock { $0 }
      })
  }

  /// Settings in memory, for previews and tests that want a working client.
  public static func inMemory(onboarded: Bool = false, taps: Int = 0) -> Self {
    let state = Guarded((onboarded, taps))
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
