import Cascade
import CascadeExampleQapple
import CascadeExampleSupport
import Foundation

// qapple: the anonymous Q&A community, headless. By default it runs the scripted scenario and
// exits non-zero if an expectation fails; --interactive reads commands from stdin.

let usage = """
  usage: qapple [--interactive] [--data-dir PATH] [--record FILE [--force]]

    (default)        run the scripted scenario and check its expectations
    --interactive    read commands: question, answers, more, like N, report N, delete N,
                     write TEXT, refresh, list, quit
    --data-dir PATH  where your answers, likes and reports are kept (default: a new temporary
                     directory); the scenario works in a scratch folder of its own inside it
    --record FILE    write the session's recording to FILE, for cascade-inspect
    --force          with --record: replace a file that is not a recording
  """

let commandLine = ExampleCommandLine.parseOrExit(
  program: "qapple", usage: usage, flags: ["--interactive", "--force"],
  options: ["--data-dir", "--record"])
let recording = SessionRecording<TodayQuestionFeature.State, TodayQuestionFeature.Action>(
  commandLine)

guard commandLine.has("--interactive") else {
  await runScenarioAndExit(program: "qapple", inside: commandLine["--data-dir"]) { folder in
    await QappleScenario(
      dataDirectory: folder, recorder: recording.recorder, print: { print($0) }
    ).run() + recording.save()
  }
}
// From here on a signal ends the session as `quit` does, leaving nothing behind.
let input = InteractiveInput(program: commandLine.program, unsaved: recording.unsaved)
let dataDirectory = commandLine.dataDirectoryOrExit(files: ["qapple-local.json"])

let store = Store(initialState: TodayQuestionFeature.State()) {
  TodayQuestionFeature().record(into: recording.recorder)
} withDependencies: {
  $0.answerRepository = .live(dataDirectory: dataDirectory, userID: { 7 })
}

@MainActor func screen() -> StackElementID? { store.path.ids.last }
@MainActor func list() -> AnswerListFeature.State? {
  guard let id = screen(), case let .answers(list)? = store.path[id: id] else { return nil }
  return list
}
@MainActor func send(_ action: AnswerListFeature.Action) async {
  guard let id = screen(), list() != nil else {
    return print("that command works on the answer list; type 'answers' first")
  }
  await store.send(.path(.element(id: id, action: .answers(action)))).finish()
}
@MainActor func show() {
  if let list = list() {
    print("\(list.answers.count) of \(list.total) answers\(list.hasNext ? " (more)" : "")")
    for (index, answer) in list.answers.enumerated() {
      let marks = [
        answer.isLiked ? "♥" : "", answer.isMine ? "mine" : "", answer.isReported ? "reported" : "",
      ]
      .filter { !$0.isEmpty }.joined(separator: ", ")
      print(
        "  \(index + 1). \(echo(answer.authorNickname)): \(echo(answer.content, limit: 200))\(marks.isEmpty ? "" : " [\(marks)]")"
      )
    }
    if let error = list.errorMessage { print("! \(error) (type 'refresh' to try again)") }
  } else if let question = store.question {
    print("Today: \(question.content)")
  } else if let error = store.errorMessage {
    print("! \(error) (type 'question' to try again)")
  }
}
/// The answer numbered N in `words` ("like N"), or `nil` after saying what is wrong.
@MainActor func answer(_ words: [Substring]) -> Answer.ID? {
  guard let list = list() else {
    print("that command works on the answer list; type 'answers' first")
    return nil
  }
  guard words.count == 2, let n = Int(words[1]), n >= 1, n <= list.answers.count else {
    let given = words.dropFirst().joined(separator: " ")
    print(
      "\(words[0]) N: N is an answer number from 1 to \(list.answers.count)"
        + (given.isEmpty ? "" : ", not '\(echo(given))'"))
    return nil
  }
  return list.answers[n - 1].id
}

print(
  "qapple (data in \(dataDirectory.path)): question, answers, more, like N, report N, delete N, write TEXT, refresh, list, quit"
)
await store.send(.onAppear).finish()
show()
await input.runSession(show: show, leave: { recording.saveAndExit($0) }) { line in
  let words = line.split(separator: " ")
  switch words.first.map(String.init) ?? "" {
  case "question": await store.send(.onAppear).finish()
  case "answers":
    await store.send(.seeAnswersButtonTapped).finish()
    await send(.onAppear)
  case "more":
    guard let list = list() else {
      print("that command works on the answer list; type 'answers' first")
      break
    }
    if !list.hasNext { print("there are no more answers") }
    if let last = list.answers.last { await send(.answerAppeared(last.id)) }
  case "like": if let id = answer(words) { await send(.likeButtonTapped(id)) }
  case "report":
    if let id = answer(words) {
      await send(.reportButtonTapped(id))
      if let report = list()?.dialog?.buttons.first { await send(.dialog(.tapped(report))) }
    }
  case "delete":
    if let id = answer(words) {
      await send(.deleteButtonTapped(id))
      if let delete = list()?.alert?.buttons.first { await send(.alert(.tapped(delete))) }
    }
  case "write":
    guard list() != nil else {
      print("that command works on the answer list; type 'answers' first")
      break
    }
    await send(.writeButtonTapped)
    // The text as typed after the command, its own spaces kept.
    let text = line.drop { $0 == " " }.dropFirst("write".count).drop { $0 == " " }
    await send(.write(.presented(.textChanged(String(text)))))
    await send(.write(.presented(.submitButtonTapped)))
    if let error = list()?.write?.errorMessage {
      print("! \(error)")
      await send(.write(.dismiss))
    }
  case "refresh": await send(.refreshPulled)
  case "list", "": break
  case "quit", "q": return .quit
  case let other:
    print("unknown command '\(echo(other))'; type 'list' to see where you are, or 'quit'")
  }
  return .show
}
