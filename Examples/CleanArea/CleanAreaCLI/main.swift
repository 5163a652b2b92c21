import Cascade
import CascadeExampleCleanArea
import CascadeExampleSupport
import Foundation

// clean-area: CleanArea's policy browser, headless. By default it runs the scripted scenario
// in a temporary data directory and exits non-zero if an expectation fails; --interactive reads
// commands from standard input, with bookmarks kept in --data-dir between runs.

let usage = """
  usage: clean-area [--interactive] [--data-dir PATH] [--policies PATH] [--record FILE [--force]]

    (default)          run the scripted scenario and check its expectations
    --interactive      read commands (type 'help' for the list)
    --data-dir PATH    where bookmarks are kept (default: a new temporary directory); the
                       scenario works in its own 'scenario' folder inside it, never touching
                       your bookmarks
    --policies PATH    with --interactive: a policies file to read instead of the shipped one
    --record FILE      write the session's recording to FILE, for cascade-inspect
    --force            with --record: replace a file that is not a recording
  """

let commands = """
  all | categories | bookmarks      switch tab on the main screen
  category NAME                     show one category
  search TEXT                       search titles, categories, summaries, eligibility
  open ID                           open a policy listed on the main screen, or a related one
  bookmark | back | home            on the top detail screen
  retry | state | quit
  """

let commandLine = ExampleCommandLine.parseOrExit(
  program: "clean-area", usage: usage, flags: ["--interactive", "--force"],
  options: ["--data-dir", "--policies", "--record"], interactiveOnly: ["--policies"])
let recording = SessionRecording<StartFeature.State, StartFeature.Action>(commandLine)
let options = commandLine.values

guard commandLine.has("--interactive") else {
  await runScenarioAndExit(program: "clean-area", inside: commandLine["--data-dir"]) { folder in
    await CleanAreaScenario(
      dataDirectory: folder, recorder: recording.recorder, print: { print($0) }
    ).run() + recording.save()
  }
}
// From here on a signal ends the session as `quit` does, leaving nothing behind.
let input = InteractiveInput(program: commandLine.program, unsaved: recording.unsaved)
let dataDirectory = commandLine.dataDirectoryOrExit(files: ["bookmarks.json"])

let bookmarks = BookmarkClient.live(file: dataDirectory.appendingPathComponent("bookmarks.json"))
let store = Store(initialState: StartFeature.State()) {
  StartFeature().record(into: recording.recorder)
} withDependencies: {
  $0.policies = .live(file: options["--policies"].map { URL(fileURLWithPath: $0) })
  $0.bookmarks = bookmarks
}

/// Waits (at most a second) until every open screen shows the saved bookmarks: they arrive
/// through each screen's observation, a moment after the tap.
@MainActor func waitForBookmarks() async {
  let saved = bookmarks.current()
  _ = await waitUntil(store, timeout: .seconds(1)) { state in
    state.path.allSatisfy { screen in
      switch screen {
      case .main(let main): main.bookmarks == saved
      case .detail(let detail): detail.isBookmarked == saved.contains(detail.policy.id)
      }
    }
  }
}

/// Sends `action` and waits for its work, except observations that last as long as a screen.
@MainActor func run(_ action: StartFeature.Action, waits: Bool = true) async {
  let task = store.send(action)
  if waits { await task.finish() }
}

@MainActor func mainAction(_ action: MainFeature.Action) -> StartFeature.Action? {
  guard let id = store.path.ids.first else {
    print("the policies are not loaded; type 'retry'")
    return nil
  }
  guard store.path.count == 1 else {
    print("that command works on the main screen; type 'home' first")
    return nil
  }
  return .path(.element(id: id, action: .main(action)))
}

@MainActor func detailAction(_ action: PolicyDetailFeature.Action) -> StartFeature.Action? {
  guard let id = store.path.ids.last, case .detail? = store.path.last else {
    print("that command works on a policy's screen; type 'open ID' first")
    return nil
  }
  return .path(.element(id: id, action: .detail(action)))
}

await run(.onAppear)
if let appear = mainAction(.onAppear) {
  await run(appear, waits: false)
  await waitForBookmarks()
}
print("clean-area (bookmarks in \(dataDirectory.path)); type 'help' for commands")
print(CleanAreaScenario.describe(store.state))
await input.runSession(
  show: { print(CleanAreaScenario.describe(store.state)) }, leave: { recording.saveAndExit($0) }
) { line in
  let words = line.split(separator: " ", maxSplits: 1).map(String.init)
  switch (words.first ?? "", words.dropFirst().first) {
  case ("help", _): print(commands)
  case ("quit", _), ("q", _): return .quit
  case ("category", nil), ("search", nil), ("open", nil):
    print("'\(echo(line))' needs a value; type 'help'")
  case ("state", _), ("", _): break
  case ("all", _): if let action = mainAction(.tabSelected(.all)) { await run(action) }
  case ("categories", _):
    if let action = mainAction(.tabSelected(.categories)) { await run(action) }
  case ("bookmarks", _): if let action = mainAction(.tabSelected(.bookmarks)) { await run(action) }
  case ("category", let name?):
    if let action = mainAction(.categorySelected(name)) { await run(action) }
  case ("search", let text?):
    if let action = mainAction(.searchTextChanged(text)) { await run(action) }
  case ("open", let text?):
    let listed: [Policy]
    let action: StartFeature.Action?
    switch store.path.last {
    case .detail(let detail)?:
      listed = detail.related
      action = Int(text).flatMap { id in detailAction(.relatedTapped(id)) }
    case .main(let main)?:
      listed = main.visiblePolicies
      action = Int(text).map { id in
        .path(.element(id: store.path.ids.last!, action: .main(.policyTapped(id))))
      }
    case nil:
      print("the policies are not loaded; type 'retry'")
      return .skip
    }
    guard let id = Int(text), listed.contains(where: { $0.id == id }), let action else {
      let ids = listed.map { "\($0.id)" }.joined(separator: ", ")
      print("open ID: ID is one of the policies listed here (\(ids)), not '\(echo(text))'")
      return .skip
    }
    let before = store.path.count
    await run(action)
    // A new detail starts observing bookmarks, as a view's onAppear would.
    if store.path.count > before, let appear = detailAction(.onAppear) {
      await run(appear, waits: false)
    }
  case ("bookmark", _):
    if let action = detailAction(.bookmarkTapped) {
      await run(action)
      await waitForBookmarks()
    }
  case ("back", _): if let action = detailAction(.backTapped) { await run(action) }
  case ("home", _): if let action = detailAction(.homeTapped) { await run(action) }
  case ("retry", _):
    await run(.retryTapped)
    if let appear = mainAction(.onAppear) {
      await run(appear, waits: false)
      await waitForBookmarks()
    }
  default: print("unknown command '\(echo(line))'; type 'help'")
  }
  await Task.yield()
  return .show
}
