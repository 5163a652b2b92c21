import Cascade
import CascadeExampleSupport
import CascadeExampleTapTap
import Foundation

// taptap: TapTap's launch flow, headless. By default it runs the scripted scenario in a
// temporary data directory and exits non-zero if an expectation fails; --interactive reads
// commands from standard input.

let usage = """
  usage: taptap [--interactive] [--data-dir PATH] [--lookup PATH] [--version X.Y.Z] [--splash-ms N] [--record FILE [--force]]

    (default)          run the scripted scenario and check its expectations
    --interactive      read commands: appear next skip start tap reset update state quit
    --data-dir PATH    where settings are kept (default: a new temporary directory); the
                       scenario works in a scratch folder of its own inside it
    --lookup PATH      a store lookup response to read instead of the shipped one
    --version X.Y.Z    the version of the running app (default 2.1.0; X.Y means X.Y.0)
    --splash-ms N      how long the splash shows (default 1550)
    --record FILE      write the session's recording to FILE, for cascade-inspect
    --force            with --record: replace a file that is not a recording
  """

let commandLine = ExampleCommandLine.parseOrExit(
  program: "taptap", usage: usage, flags: ["--interactive", "--force"],
  options: ["--data-dir", "--lookup", "--version", "--splash-ms", "--record"],
  interactiveOnly: ["--lookup", "--version", "--splash-ms"])
let recording = SessionRecording<AppFeature.State, AppFeature.Action>(commandLine)
let options = commandLine.values

guard commandLine.has("--interactive") else {
  await runScenarioAndExit(program: "taptap", inside: commandLine["--data-dir"]) { folder in
    await TapTapScenario(
      dataDirectory: folder, recorder: recording.recorder, print: { print($0) }
    ).run() + recording.save()
  }
}
// Every option is checked before anything is created.
guard let version = AppVersion(options["--version"] ?? "2.1.0") else {
  commandLine.exitWithUsageError(
    ExampleCommandLine.ParseError.badValue(
      "--version", options["--version"] ?? "", "a version such as 2.1.0"))
}
let splash = commandLine.integerOrExit("--splash-ms", in: 0...60_000) ?? 1550
// From here on a signal ends the session as `quit` does, leaving nothing behind.
let input = InteractiveInput(program: commandLine.program, unsaved: recording.unsaved)
let dataDirectory = commandLine.dataDirectoryOrExit(files: ["settings.json"])

let store = Store(initialState: AppFeature.State()) {
  AppFeature(splashDuration: .milliseconds(splash)).record(into: recording.recorder)
} withDependencies: {
  $0.continuousClock = ContinuousClock()
  $0.settings = .file(dataDirectory.appendingPathComponent("settings.json"))
  $0.appVersion = .live(
    currentVersion: version, lookupFile: options["--lookup"].map { URL(fileURLWithPath: $0) },
    opened: { print("(opening \($0))") })
}

/// `action`, or `nil` after saying what the screen shown takes instead.
@MainActor func onScreen(_ action: AppFeature.Action) -> AppFeature.Action? {
  switch action {
  case .onboarding where store.onboarding == nil:
    print("that command works on the onboarding screen; \(whatToType())")
    return nil
  case .home where store.home == nil:
    print("that command works on the home screen; \(whatToType())")
    return nil
  default: return action
  }
}

/// What the user can type on the screen shown.
@MainActor func whatToType() -> String {
  if store.alert != nil { return "type 'update'" }
  switch store.launch {
  case .splash: return "type 'appear' to start the app"
  case .onboarding: return "type 'next', 'skip' or 'start'"
  case .home: return "type 'tap' or 'reset'"
  }
}

print("taptap (data in \(dataDirectory.path)): appear next skip start tap reset update state quit")
await input.runSession(
  show: { print(TapTapScenario.describe(store.state)) }, leave: { recording.saveAndExit($0) }
) { line in
  let action: AppFeature.Action?
  switch line.trimmingCharacters(in: .whitespaces) {
  case "appear": action = .onAppear
  case "next": action = onScreen(.onboarding(.nextButtonTapped))
  case "skip": action = onScreen(.onboarding(.skipButtonTapped))
  case "start": action = onScreen(.onboarding(.startButtonTapped))
  case "tap": action = onScreen(.home(.tapButtonTapped))
  case "reset": action = onScreen(.home(.resetButtonTapped))
  case "update":
    action = store.alert?.buttons.first.map { .alert(.tapped($0)) }
    if action == nil { print("no update is asked for; \(whatToType())") }
  case "state", "": action = nil
  case "quit", "q": return .quit
  case let other:
    print("unknown command '\(echo(other))'; \(whatToType()), or 'quit'")
    action = nil
  }
  if let action { await store.send(action).finish() }
  return .show
}
