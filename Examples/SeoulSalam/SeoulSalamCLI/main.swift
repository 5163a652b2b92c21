import Cascade
import CascadeExampleSeoulSalam
import CascadeExampleSupport
import Foundation

// seoul-salam: halal restaurants in Seoul, headless. By default it runs the scripted scenario
// and exits non-zero if an expectation fails; --interactive reads commands from stdin.

let usage = """
  usage: seoul-salam [--interactive] [--data PATH] [--changes PATH | --no-changes] [--record FILE [--force]]

    (default)        run the scripted scenario and check its expectations
    --interactive    read commands: observe, stop, search TEXT, reset, open N, close, retry, list, quit
    --data PATH      a restaurant data set to read instead of the shipped one
    --changes PATH   a change log to replay instead of the shipped one (one change a second)
    --no-changes     replay no change log
    --record FILE    write the session's recording to FILE, for cascade-inspect
    --force          with --record: replace a file that is not a recording
  """

let commandLine = ExampleCommandLine.parseOrExit(
  program: "seoul-salam", usage: usage, flags: ["--interactive", "--force", "--no-changes"],
  options: ["--data", "--changes", "--record"],
  interactiveOnly: ["--data", "--changes", "--no-changes"])
let recording = SessionRecording<RestaurantFeature.State, RestaurantFeature.Action>(commandLine)
let (options, flags) = (commandLine.values, commandLine.flags)
if flags.contains("--no-changes"), options["--changes"] != nil {
  commandLine.exitWithUsageError(
    ExampleCommandLine.ParseError.conflicting("--changes", "--no-changes"))
}

guard commandLine.has("--interactive") else {
  await runScenarioAndExit(program: "seoul-salam") { _ in
    await SeoulSalamScenario(recorder: recording.recorder, print: { print($0) }).run()
      + recording.save()
  }
}

let changes: RestaurantClient.ChangeLog =
  flags.contains("--no-changes")
  ? .none : options["--changes"].map { .file(URL(fileURLWithPath: $0)) } ?? .shipped
// From here on a signal ends the session as `quit` does.
let input = InteractiveInput(program: commandLine.program, unsaved: recording.unsaved)
let store = Store(initialState: RestaurantFeature.State()) {
  RestaurantFeature().record(into: recording.recorder)
} withDependencies: {
  $0.continuousClock = ContinuousClock()
  $0.restaurants = .live(
    dataFile: options["--data"].map { URL(fileURLWithPath: $0) }, changes: changes,
    clock: ContinuousClock())
}

@MainActor func show() {
  let state = store.state
  if let failure = state.failure { print("! \(failure) (type 'retry')") }
  if let detail = state.detail {
    let r = detail.restaurant
    print(
      "[\(r.name)] \(r.category), \(r.certification.rawValue)\n  \(r.address)\n  \(r.addressKorean)\n  \(detail.coordinates)\(detail.isRemoved ? "\n  (no longer listed)" : "")"
    )
    return
  }
  print(
    "\(state.results.count) of \(state.restaurants.count) restaurants\(state.isObserving ? " (live)" : "")"
  )
  for (index, restaurant) in state.results.prefix(10).enumerated() {
    print("  \(index + 1). \(restaurant.name) — \(restaurant.category), \(restaurant.district)")
  }
}

/// Waits until the listings arrived or the observation ended (a failure, shown next), at most
/// five seconds: a data set that cannot be loaded never leaves the session waiting.
@MainActor func waitForListings() async {
  _ = await waitUntil(store, timeout: .seconds(5)) {
    !$0.restaurants.isEmpty || $0.failure != nil || !$0.isObserving
  }
}

print("seoul-salam: observe, stop, search TEXT, reset, open N, close, retry, list, quit")
// The listing is live: say so when it changes while the session waits.
let liveListing = Task { @MainActor in
  var last = store.restaurants.count
  for await count in store.values(of: \.restaurants.count) where count != last {
    if store.isObserving, last > 0 { print("(live) \(count) restaurants listed, were \(last)") }
    last = count
  }
}
await input.runSession(show: show, leave: { recording.saveAndExit($0) }) { line in
  let words = line.split(separator: " ", maxSplits: 1).map(String.init)
  switch words.first ?? "" {
  case "observe":
    store.send(.startObserving)
    await waitForListings()
  case "stop": store.send(.stopObserving)
  case "search":
    let text = words.count > 1 ? words[1] : ""
    store.send(.searchTextChanged(text))
    _ = await waitUntil(store, timeout: .seconds(5)) { $0.query == text }
  case "reset": store.send(.resetSearchButtonTapped)
  case "open":
    let given = words.count > 1 ? words[1] : ""
    if store.detail != nil {
      print("a restaurant is open; type 'close' first")
    } else if store.results.isEmpty {
      print("no restaurant is listed; type 'observe' first")
    } else if let n = Int(given), n >= 1, n <= store.results.count {
      store.send(.restaurantTapped(store.results[n - 1].id))
    } else {
      print("open N: N is a result number from 1 to \(store.results.count), not '\(echo(given))'")
    }
  case "close":
    guard store.detail != nil else {
      print("no restaurant is open; type 'open N'")
      break
    }
    store.send(.detail(.presented(.closeButtonTapped)))
    _ = await waitUntil(store, timeout: .seconds(5)) { $0.detail == nil }
  case "retry":
    store.send(.retryButtonTapped)
    await waitForListings()
  case "list", "": break
  case "quit", "q": return .quit
  case let other:
    print("unknown command '\(echo(other))'; type observe, search TEXT, open N or quit")
  }
  return .show
}
