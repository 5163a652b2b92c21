import Cascade
import CascadeExampleSupport
import CascadeExampleTouchSchool
import Foundation

// touch-school: TouchSchool's school ranking game, headless. By default it runs the scripted
// scenario in a temporary data directory and exits non-zero if an expectation fails;
// --interactive reads commands from standard input, with the ranking kept in --data-dir
// between runs while rival players touch for other schools.

let usage = """
  usage: touch-school [--interactive] [--data-dir PATH] [--record FILE [--force]]

    (default)          run the scripted scenario and check its expectations
    --interactive      read commands (type 'help' for the list)
    --data-dir PATH    where the ranking is kept (default: a new temporary directory); the
                       scenario works in its own folder inside it, never touching your ranking
    --record FILE      write the session's recording to FILE, for cascade-inspect
    --force            with --record: replace a file that is not a recording
  """

let commands = """
  find [TEXT]             list the schools whose name or address contains TEXT (all without)
  pick ID                 make the school with code ID my school
  play                    open the game (after 'pick')
  tap [N]                 on the game: tap once, or N times (N from 1 to 10000)
  rank                    open the rank screen (from the main screen or the game)
  panel                   on the rank screen: show or hide the panel
  back                    leave the top screen
  state | help | quit
  """

let commandLine = ExampleCommandLine.parseOrExit(
  program: "touch-school", usage: usage, flags: ["--interactive", "--force"],
  options: ["--data-dir", "--record"])
let recording = SessionRecording<MainFeature.State, MainFeature.Action>(commandLine)

guard commandLine.has("--interactive") else {
  await runScenarioAndExit(program: "touch-school", inside: commandLine["--data-dir"]) { folder in
    await TouchSchoolScenario(
      dataDirectory: folder, recorder: recording.recorder, print: { print($0) }
    ).run() + recording.save()
  }
}
// From here on a signal ends the session as `quit` does, leaving nothing behind.
let input = InteractiveInput(
  program: commandLine.program,
  unsaved: ["the taps still waiting in the game's batch, if any"] + recording.unsaved)
let dataDirectory = commandLine.dataDirectoryOrExit(files: ["ranking.json"])

let store = Store(initialState: MainFeature.State()) {
  MainFeature().record(into: recording.recorder)
} withDependencies: {
  $0.ranking = .live(
    board: RankingBoard(file: dataDirectory.appendingPathComponent("ranking.json")),
    rivals: RivalPlayers(schools: RivalPlayers.shippedSchools, every: .milliseconds(700)))
}

/// Sends `action` and waits for its work, except the ranking stream and a batch's timer.
@MainActor func run(_ action: MainFeature.Action, waits: Bool = true) async {
  let task = store.send(action)
  if waits { await task.finish() }
}

/// `action` for the top screen, if it is of the kind `action` is for.
@MainActor func top(_ action: MainFeature.Path.Action) -> MainFeature.Action? {
  guard let id = store.path.ids.last, let screen = store.path.last else { return nil }
  switch (screen, action) {
  case (.game, .game), (.rank, .rank): return .path(.element(id: id, action: action))
  default: return nil
  }
}

@MainActor func list(_ text: String) async {
  await run(.searchTextChanged(text))
  for school in store.visibleSchools {
    print("  \(school.id)  \(school.name)  (\(school.level), \(school.address))")
  }
}

@MainActor func back() async {
  if let action = top(.game(.backTapped)) ?? top(.rank(.backTapped)) {
    await run(action)
  } else {
    print("the main screen is the bottom of the stack")
  }
}

await run(.onAppear, waits: false)
_ = await waitUntil(store, timeout: .seconds(2)) { $0.phase != .loading }
print("touch-school (ranking in \(dataDirectory.path)); type 'help' for commands")
print(TouchSchoolScenario.describe(store.state))
/// Saves the taps still waiting, stops the ranking stream, and ends the program.
@MainActor func leave(status: Int32 = 0) async -> Never {
  await run(.onDisappear)
  if let error = store.saveError { printError("touch-school: \(error)") }
  recording.saveAndExit(status)
}

// Rivals keep playing while the session waits: say so when my school's rank moves.
let liveRank = Task { @MainActor in
  var last = store.myRank
  for await rank in store.values(of: \.myRank) where rank != last {
    if let rank, let was = last, store.mySchool != nil {
      print("(live) \(store.mySchool?.name ?? "my school") is now #\(rank), was #\(was)")
    }
    last = rank
  }
}
await input.runSession(
  show: { print(TouchSchoolScenario.describe(store.state)) }, leave: { await leave(status: $0) }
) { line in
  let words = line.split(separator: " ", maxSplits: 1).map(String.init)
  switch (words.first ?? "", words.dropFirst().first) {
  case ("help", _): print(commands)
  case ("quit", _), ("q", _): return .quit
  case ("state", _), ("", _): break
  case ("find", let text): await list(text ?? "")
  case ("pick", let id?):
    guard store.schools[id: id] != nil else {
      print("no school has the code '\(echo(id))'; type 'find TEXT' to see the codes")
      return .skip
    }
    await run(.schoolSelected(id))
  case ("pick", nil): print("pick needs a school code: 'find TEXT', then 'pick ID'")
  case ("play", _):
    guard store.mySchool != nil else {
      print("pick a school first ('find', then 'pick ID')")
      return .skip
    }
    guard store.path.isEmpty else {
      print("the game opens from the main screen; type 'back' first")
      return .skip
    }
    await run(.playTapped)
  case ("tap", let count):
    guard let action = top(.game(.touchTapped)) else {
      print("open the game first ('play')")
      return .skip
    }
    let times = count.map { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
    guard let times, (1...10_000).contains(times) else {
      print("tap N: N is a whole number from 1 to 10000, not '\(echo(count ?? ""))'")
      return .skip
    }
    // A long run (seconds with --record in a debug build) says how far it got, on standard
    // error so that replies stay one per command.
    var lastReport = ContinuousClock.now
    for done in 1...times {
      await run(action, waits: false)
      guard done % 1_000 == 0, done < times, lastReport.duration(to: .now) >= .milliseconds(500)
      else { continue }
      lastReport = .now
      printError("touch-school: tapped \(done) of \(times)...")
    }
  case ("rank", _):
    if case .rank? = store.path.last {
      print("the rank screen is already open")
      return .skip
    }
    await run(top(.game(.rankTapped)) ?? .rankTapped)
  case ("panel", _):
    if let action = top(.rank(.panelToggled)) { await run(action) } else { print("no rank screen") }
  case ("back", _): await back()
  default: print("unknown command '\(echo(line))'; type 'help'")
  }
  await Task.yield()
  return .show
}
