import Cascade
import CleanArea
import Counter
import Foundation
import Qapple
import SeoulSalam
import TapTap

// cascade-examples: runs every example app's headless scenario in turn and prints one verdict
// line per app. Pass --verbose for the full transcripts. Exits non-zero if any app failed.

let verbose = CommandLine.arguments.contains("--verbose")

@MainActor
func report(
  _ app: String, _ run: (@escaping @MainActor @Sendable (String) -> Void) async -> [String]
) async -> Bool {
  let transcript = Guarded<[String]>([])
  let failures = await run { line in
    if verbose { print("  [\(app)] \(line)") } else { transcript.withLock { $0.append(line) } }
  }
  let lines = transcript.withLock { $0 }
  if failures.isEmpty {
    print("PASS  \(app)")
  } else {
    for line in lines { print("  [\(app)] \(line)") }
    print("FAIL  \(app): \(failures.joined(separator: "; "))")
  }
  return failures.isEmpty
}

var passed = 0
var failed = 0
let apps: [(String, (@escaping @MainActor @Sendable (String) -> Void) async -> [String])] = [
  ("counter", { await CounterScenario(print: $0).run() }),
  (
    "taptap",
    { print in
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "cascade-examples-taptap-\(ProcessInfo.processInfo.processIdentifier)")
      defer { try? FileManager.default.removeItem(at: directory) }
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      return await TapTapScenario(dataDirectory: directory, print: print).run()
    }
  ),
  ("seoul-salam", { await SeoulSalamScenario(print: $0).run() }),
  (
    "qapple",
    { print in
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "cascade-examples-qapple-\(ProcessInfo.processInfo.processIdentifier)")
      defer { try? FileManager.default.removeItem(at: directory) }
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      return await QappleScenario(dataDirectory: directory, print: print).run()
    }
  ),
  (
    "clean-area",
    { print in
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "cascade-examples-clean-area-\(ProcessInfo.processInfo.processIdentifier)")
      defer { try? FileManager.default.removeItem(at: directory) }
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      return await CleanAreaScenario(dataDirectory: directory, print: print).run()
    }
  ),
]
for (name, run) in apps {
  if await report(name, run) { passed += 1 } else { failed += 1 }
}
print("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
