import Testing

@testable import Cascade

private struct Profile: Equatable, Identifiable {
  var id: Int
  var name: String
  var tags: [String]
  var score: Double?
}

private enum Screen: Equatable {
  case home
  case detail(Profile)
  case search(query: String, page: Int)
}

private struct AppState: Equatable {
  var count = 1
  var screen = Screen.home
  var profiles: IdentifiedArrayOf<Profile> = []
  var lookup: [String: Int] = [:]
  var selected: Profile?
  var flags: Set<String> = []
}

@Suite struct StateDumpTests {
  @Test func dumpsNestedStructsEnumsCollectionsAndOptionals() {
    var state = AppState()
    state.screen = .search(query: "seoul", page: 2)
    state.profiles = [Profile(id: 1, name: "Ada", tags: ["x"], score: nil)]
    state.lookup = ["b": 2, "a": 1]
    state.flags = ["z", "y"]
    let dump = stateDump(state)
    #expect(
      dump == """
        AppState(
          count: 1
          screen: Screen.search(
            query: "seoul"
            page: 2
          )
          profiles: [
            [0]: Profile(
              id: 1
              name: "Ada"
              tags: [
                [0]: "x"
              ]
              score: nil
            )
          ]
          lookup: [
            "a": 1
            "b": 2
          ]
          selected: nil
          flags: Set([
            "y"
            "z"
          ])
        )
        """)
  }

  @Test func dumpsPayloadlessCasesSinglePayloadsAndEmptyCollections() {
    #expect(stateDump(Screen.home) == "Screen.home")
    #expect(stateDump(AppState().lookup) == "[:]")
    #expect(stateDump([Int]()) == "[]")
    #expect(stateDump(Optional<Int>.none) == "nil")
    #expect(stateDump(Optional(3)) == "3")
    #expect(stateDump("quote\"d") == #""quote\"d""#)
    #expect(typeDescription(IdentifiedArrayOf<Profile>.self) == "IdentifiedArray<Int, Profile>")
  }

  @Test func diffsShowOnlyWhatChangedWithContext() {
    var old = AppState()
    old.profiles = [
      Profile(id: 1, name: "Ada", tags: [], score: 1),
      Profile(id: 2, name: "Bob", tags: [], score: 2),
    ]
    var new = old
    new.count = 2
    new.profiles[id: 2]?.name = "Bo"
    new.screen = .detail(new.profiles[0])
    let diff = stateDiff(old, new, context: 1)
    #expect(
      diff == """
          AppState(
        −  count: 1
        −  screen: Screen.home
        +  count: 2
        +  screen: Screen.detail(
        +    Profile(
        +      id: 1
        +      name: "Ada"
        +      tags: []
        +      score: 1.0
        +    )
        +  )
            profiles: [
          … (7 unchanged)
                id: 2
        −      name: "Bob"
        +      name: "Bo"
                tags: []
          … (7 unchanged)
        """)
    #expect(stateDiff(old, old) == nil)
  }
}

@Suite struct CompactDumpTests {
  private enum Inner: Equatable {
    case saveTapped
    case rename(String)
  }
  private enum Outer {
    case path(StackAction<Int, Inner>)
    case values([Int])
    case pair(Int?, label: String)
  }
  private struct Point {
    var x = 1
    var y = 2
  }

  @Test func describesActionsOnOneLine() {
    #expect(
      compactDump(Outer.path(.element(id: 0, action: .saveTapped)))
        == ".path(.element(id: #0, action: .saveTapped))")
    #expect(
      compactDump(Outer.path(.element(id: 3, action: .rename("a"))))
        == #".path(.element(id: #3, action: .rename("a")))"#)
    #expect(compactDump(Outer.values([1, 2, 3, 4, 5, 6, 7])) == ".values([1, 2, 3, 4, 5, …(+2)])")
    #expect(compactDump(Outer.pair(nil, label: "x")) == #".pair(nil, label: "x")"#)
    #expect(compactDump(Point()) == "CompactDumpTests.Point(x: 1, y: 2)")
  }
}
