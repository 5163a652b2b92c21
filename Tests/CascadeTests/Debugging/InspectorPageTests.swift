import CascadeInspector
import CascadeTesting
import Foundation
import Testing

@testable import Cascade

/// A state holding the odd values the inspector must show safely.
private struct Oddities: Reducer {
  struct State: Equatable, Sendable {
    var text = ""
    var values: [Int] = []
    var nested: Nest?
  }
  indirect enum Nest: Equatable, Sendable {
    case leaf(String)
    case node(Nest)
  }
  enum Action: Equatable, Sendable {
    case textChanged(String)
    case fill(Int)
    case nest(depth: Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .textChanged(let text): state.text = text
    case .fill(let count): state.values = Array(0..<count)
    case .nest(let depth):
      var nest = Nest.leaf("bottom")
      for _ in 0..<depth { nest = .node(nest) }
      state.nested = nest
    }
    return .none
  }
}

/// The text the script in the page reads: the JSON block, as the browser hands it over.
private func dataBlock(of page: String) throws -> String {
  let open = #"<script type="application/json" id="session-data">"#
  let start = try #require(page.range(of: open))
  let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
  return String(page[start.upperBound..<end.lowerBound])
}

@MainActor
@Suite(.hangGuard)
struct InspectorPageTests {
  static let hostile = [
    "</script><script>document.title='PWNED'</script>",
    "<img src=x onerror=\"document.title='PWNED'\">",
    "&amp; & <!-- -->",
    "line\u{2028}separator\u{2029}paragraph",
    "서울고등학교 한국어 텍스트", "emoji 🧑‍🚀🇰🇷✨",
    String(repeating: "long ", count: 5_000),
  ]

  private func oddSession() throws -> RecordedSession {
    let recorder = Recorder<Oddities.State, Oddities.Action>(inspectable: true)
    let store = Store(initialState: Oddities.State()) { Oddities().record(into: recorder) }
    for text in Self.hostile { store.send(.textChanged(text)) }
    store.send(.fill(10_000))
    store.send(.nest(depth: 60))
    return try #require(recorder.recording.session)
  }

  @Test func thePageIsOneDocumentThatLoadsNothingFromElsewhere() throws {
    let document = try InspectorPage.html(for: oddSession(), title: "Odd values")
    let page = document.replacingOccurrences(of: try dataBlock(of: document), with: "")
    #expect(page.hasPrefix("<!doctype html>"))
    #expect(page.contains(#"<meta charset="utf-8">"#))
    #expect(page.contains("default-src 'none'"), "a content policy forbids every fetch")
    for external in ["src=", "href=", "<link", "@import", "url(", "http://", "https://"] {
      #expect(!page.contains(external), "\(external) would load something")
    }
    #expect(page.components(separatedBy: "<script").count == 3, "the data block and the script")
    for id in ["timeline", "filter", "diff", "tree", "counts", "step", "fields", "shared"] {
      #expect(page.contains(#"id="\#(id)""#), "the page has #\(id)")
    }
  }

  @Test func noStateTextCanEndTheDataBlockAndItReadsBackExactly() throws {
    let session = try oddSession()
    let page = try InspectorPage.html(for: session)
    let block = try dataBlock(of: page)
    for character in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
      #expect(!block.contains(character), "\(character.debugDescription) is escaped")
    }
    struct Payload: Decodable {
      let title: String
      let session: RecordedSession
    }
    let payload = try JSONDecoder().decode(Payload.self, from: Data(block.utf8))
    #expect(payload.session == session)
    let texts = payload.session.steps.prefix(Self.hostile.count).map(\.action)
    #expect(texts == Self.hostile.map { ".textChanged(\($0.debugDescription))" })
    #expect(session.state(after: 7).contains("  values: ["))
    #expect(session.state(after: 7).count > 10_000, "ten thousand elements, one line each")
  }

  @Test func theTitleIsTextInThePage() throws {
    let page = try InspectorPage.html(for: oddSession(), title: "<script>alert('x')</script> & co")
    #expect(
      page.contains("<title>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co</title>"))
  }

  @Test func theScriptInsertsSessionTextOnlyAsText() throws {
    let script = try InspectorPage.script
    for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
      #expect(!script.contains(sink), "the script never uses \(sink)")
    }
    #expect(script.contains("textContent"))
  }

  @Test func aStepCanBeChosenFromTheAddressAndTheKeyboard() throws {
    let script = try InspectorPage.script
    #expect(script.contains("step=(\\d+)"))
    for key in ["ArrowDown", "ArrowUp", "Home", "End"] { #expect(script.contains(key)) }
  }

  @Test func tenThousandStepsMakeACompactPage() throws {
    let recorder = Recorder<Oddities.State, Oddities.Action>(inspectable: true)
    let store = Store(initialState: Oddities.State()) { Oddities().record(into: recorder) }
    for step in 0..<10_000 { store.send(.textChanged("step \(step)")) }
    let session = try #require(recorder.recording.session)
    let page = try InspectorPage.html(for: session)
    // Each step keeps its one changed line, not the whole state: about 150 bytes a step.
    #expect(page.utf8.count < 2_500_000, "\(page.utf8.count) bytes")
    #expect(session.steps.allSatisfy { $0.changes.count == 1 && $0.fields == ["text"] })
  }
}
