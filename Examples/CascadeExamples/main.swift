import Cascade
import CascadeExampleCleanArea
import CascadeExampleCounter
import CascadeExampleQapple
import CascadeExampleSeoulSalam
import CascadeExampleSupport
import CascadeExampleTapTap
import CascadeExampleTouchSchool
import Foundation

// cascade-examples: runs every example app's headless scenario in turn and prints one verdict
// line per app. Pass --verbose for the full transcripts. Exits non-zero if any app failed.

let commandLine = ExampleCommandLine.parseOrExit(
  program: "cascade-examples",
  usage: """
    usage: cascade-examples [--verbose]

      (default)    run every example app's scripted scenario; one verdict line per app
      --verbose    print every app's full transcript
    """,
  flags: ["--verbose"])
let verbose = commandLine.has("--verbose")

@MainActor
func report(
  _ app: String, _ run: (@escaping @MainActor @Sendable (String) -> Void) async -> [String]
) async -> Bool {
  let transcript = Locked<[String]>([])
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
      await withScratchDirectory(named: "cascade-examples-taptap") { folder in
        await TapTapScenario(dataDirectory: folder, print: print).run()
      }
    }
  ),
  ("seoul-salam", { await SeoulSalamScenario(print: $0).run() }),
  (
    "qapple",
    { print in
      await withScratchDirectory(named: "cascade-examples-qapple") { folder in
        await QappleScenario(dataDirectory: folder, print: print).run()
      }
    }
  ),
  (
    "clean-area",
    { print in
      await withScratchDirectory(named: "cascade-examples-clean-area") { folder in
        await CleanAreaScenario(dataDirectory: folder, print: print).run()
      }
    }
  ),
  (
    "touch-school",
    { print in
      await withScratchDirectory(named: "cascade-examples-touch-school") { folder in
        await TouchSchoolScenario(dataDirectory: folder, print: print).run()
      }
    }
  ),
]
for (name, run) in apps {
  if await report(name, run) { passed += 1 } else { failed += 1 }
}
print("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
