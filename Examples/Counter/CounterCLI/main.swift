import Cascade
import CascadeExampleCounter
import CascadeExampleSupport
import Foundation

// counter: runs the counter's scripted scenario (default), or reads commands from stdin with
// --interactive. Exits non-zero when an expectation of the scenario fails.

let commandLine = ExampleCommandLine.parseOrExit(
  program: "counter",
  usage: """
    usage: counter [--interactive] [--record FILE [--force]]

      (default)       run the scripted scenario and check its expectations
      --interactive   read commands from standard input: + - reset timer state quit
      --record FILE   write the session's recording to FILE, for cascade-inspect
      --force         with --record: replace a file that is not a recording
    """,
  flags: ["--interactive", "--force"], options: ["--record"])
let recording = SessionRecording<CounterFeature.State, CounterFeature.Action>(commandLine)

if commandLine.has("--interactive") {
  let input = InteractiveInput(program: commandLine.program, unsaved: recording.unsaved)
  let store = Store(initialState: CounterFeature.State()) {
    CounterFeature().record(into: recording.recorder)
  }
  print("counter: + - reset timer state quit")
  await input.runSession(
    show: { print("count = \(store.count), timer \(store.isTimerRunning ? "on" : "off")") },
    leave: { recording.saveAndExit($0) }
  ) { line in
    switch line.trimmingCharacters(in: .whitespaces) {
    case "+": store.send(.incrementButtonTapped)
    case "-": store.send(.decrementButtonTapped)
    case "reset": store.send(.resetButtonTapped)
    case "timer": store.send(.toggleTimerButtonTapped)
    case "state", "": break
    case "quit", "q": return .quit
    case let other: print("unknown command '\(echo(other))': + - reset timer state quit")
    }
    // Let effects that are due run before printing.
    try? await Task.sleep(for: .milliseconds(10))
    return .show
  }
}

await runScenarioAndExit(program: "counter") { _ in
  await CounterScenario(recorder: recording.recorder, print: { print($0) }).run()
    + recording.save()
}
