import Cascade
import Counter
import ExampleSupport
import Foundation

// counter: runs the counter's scripted scenario (default), or reads commands from stdin with
// --interactive. Exits non-zero when an expectation of the scenario fails.

let commandLine = ExampleCommandLine.parseOrExit(
  program: "counter",
  usage: """
    usage: counter [--interactive]

      (default)       run the scripted scenario and check its expectations
      --interactive   read commands from standard input: + - reset timer state quit
    """,
  flags: ["--interactive"])

if commandLine.has("--interactive") {
  let store = Store(initialState: CounterFeature.State()) { CounterFeature() }
  print("counter: + - reset timer state quit")
  while let line = readLine() {
    switch line.trimmingCharacters(in: .whitespaces) {
    case "+": store.send(.incrementButtonTapped)
    case "-": store.send(.decrementButtonTapped)
    case "reset": store.send(.resetButtonTapped)
    case "timer": store.send(.toggleTimerButtonTapped)
    case "state", "": break
    case "quit", "q": exit(0)
    case let other: print("unknown command '\(other)': + - reset timer state quit")
    }
    // Let effects that are due run before printing.
    try? await Task.sleep(for: .milliseconds(10))
    print("count = \(store.count), timer \(store.isTimerRunning ? "on" : "off")")
  }
  exit(0)
}

await runScenarioAndExit(program: "counter") { _ in
  await CounterScenario(print: { print($0) }).run()
}
