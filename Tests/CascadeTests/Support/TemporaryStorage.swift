import Cascade
import Foundation

/// A folder of the test's own under the temporary directory, removed when the test ends.
/// `creating` makes it at once; otherwise it exists only if something writes into it.
struct TemporaryFolder: ~Copyable {
  let url = FileManager.default.temporaryDirectory.appending(
    path: "cascade-tests-\(UUID().uuidString)")

  init(creating: Bool = false) {
    if creating {
      try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appending(path: name) }
}

/// User defaults of the test's own (a suite with a unique name), removed at the end.
final class TemporaryDefaults {
  let suite = "cascade-tests-\(UUID().uuidString)"
  let defaults: UserDefaults
  init() { defaults = UserDefaults(suiteName: suite)! }
  deinit { defaults.removePersistentDomain(forName: suite) }
  /// Real disk storage over this suite, saving every change at once.
  func storage() -> SharedStorage { .disk(defaultsSuite: suite, throttlesSaves: false) }
}
