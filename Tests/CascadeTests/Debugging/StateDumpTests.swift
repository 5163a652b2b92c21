import Foundation
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
  @Test func aOneLineAndAMultiLineDumpDescribeDatesAndIdsAlike() {
    enum Loaded { case meeting(id: UUID, at: Date) }
    let date = Date(timeIntervalSince1970: 1_234_567_890)
    let action = Loaded.meeting(id: UUID(0), at: date)
    // What a warning or a test failure prints (one line) and what a diff or a recording
    // prints (a dump) name the date and the id the same way.
    #expect(
      compactDump(action)
        == ".meeting(id: UUID(00000000-0000-0000-0000-000000000000), at: Date(2009-02-13T23:31:30Z))"
    )
    let dump = stateDump(action)
    #expect(dump.contains("UUID(00000000-0000-0000-0000-000000000000)"))
    #expect(dump.contains("Date(2009-02-13T23:31:30Z)"))
  }

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

  /// A `@PresentationState` property dumps under the name the feature gave it, not its
  /// storage's (`_sheet`), in diffs, test failures and the inspector alike.
  @Test func aPresentationStatePropertyDumpsUnderItsOwnName() {
    struct Screen {
      @PresentationState var sheet: Profile?
      var count = 0
    }
    var screen = Screen()
    screen.sheet = Profile(id: 1, name: "Ada", tags: [], score: nil)
    let dump = stateDump(screen)
    #expect(dump.contains("\n  sheet: Profile("), "\(dump)")
    #expect(!dump.contains("_sheet"), "\(dump)")
    #expect(stateDump(Screen()).contains("\n  sheet: nil"))
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

  /// A changed line's text starts in the column of the unchanged ones: every line is a
  /// two-column gutter (`  `, `− ` or `+ `) and then the dump's line as it is.
  @Test func changedLinesLineUpWithUnchangedOnes() throws {
    struct Point { var x = 1, y = 2 }
    let diff = try #require(stateDiff(Point(x: 1), Point(x: 5)))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(lines.allSatisfy { ["  ", "− ", "+ "].contains(String($0.prefix(2))) })
    let old = stateDump(Point(x: 1)).split(separator: "\n").map(String.init)
    let new = stateDump(Point(x: 5)).split(separator: "\n").map(String.init)
    for line in lines {
      let text = String(line.dropFirst(2))
      #expect(line.hasPrefix("+ ") ? new.contains(text) : old.contains(text), "\(line)")
    }
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
        −   count: 1
        −   screen: Screen.home
        +   count: 2
        +   screen: Screen.detail(
        +     Profile(
        +       id: 1
        +       name: "Ada"
        +       tags: []
        +       score: 1.0
        +     )
        +   )
            profiles: [
          … (6 unchanged)
              [1]: Profile(
                id: 2
        −       name: "Bob"
        +       name: "Bo"
                tags: []
                score: 2.0
              )
            ]
          … (3 unchanged)
          )
        """)
    #expect(stateDiff(old, old) == nil)
  }
}

@Suite struct StandardValueDumpTests {
  private struct Record: Equatable {
    var id: UUID
    var date: Date
    var url: URL
    var data: Data
    var price: Decimal
    var wait: Duration
  }

  @Test func standardValueTypesPrintTheirContent() throws {
    let record = Record(
      id: UUID(incrementing: 7), date: Date(timeIntervalSince1970: 1_234_567_890.25),
      url: try #require(URL(string: "https://example.com/a?b=1")), data: Data("hi".utf8),
      price: try #require(Decimal(string: "12.50")), wait: .milliseconds(1_500))
    #expect(
      stateDump(record) == """
        StandardValueDumpTests.Record(
          id: UUID(00000000-0000-0000-0000-000000000007)
          date: Date(2009-02-13T23:31:30.25Z)
          url: URL(https://example.com/a?b=1)
          data: Data(2 bytes: 6869)
          price: Decimal(12.5)
          wait: Duration(1.5 seconds)
        )
        """)
  }

  @Test func valuesThatDifferPrintDifferently() {
    #expect(stateDump(UUID(incrementing: 1)) != stateDump(UUID(incrementing: 2)))
    #expect(
      stateDump(Date(timeIntervalSince1970: 0.001)) != stateDump(Date(timeIntervalSince1970: 0.002))
    )
    let long = Data(repeating: 1, count: 100)
    var changed = long
    changed[99] = 2
    #expect(stateDump(long) != stateDump(changed))
    #expect(stateDump(Optional(UUID(incrementing: 3))) == stateDump(UUID(incrementing: 3)))
  }

  @Test func anEnumPayloadOfAStandardTypePrintsOnOneLine() {
    enum Event { case opened(UUID) }
    #expect(
      stateDump(Event.opened(UUID(incrementing: 1)))
        == "StandardValueDumpTests.Event.opened(UUID(00000000-0000-0000-0000-000000000001))")
  }
}

@Suite struct DiffFoldingTests {
  private struct Wide: Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7
  }

  @Test func theRootTypesLineIsNeverFolded() {
    var new = Wide()
    new.g = 70
    #expect(
      stateDiff(Wide(), new, context: 1) == """
          DiffFoldingTests.Wide(
          … (5 unchanged)
            f: 6
        −   g: 7
        +   g: 70
          )
        """)
  }

  @Test func aFoldNeverHidesASingleLine() {
    var new = Wide()
    new.c = 30
    #expect(
      stateDiff(Wide(), new, context: 1) == """
          DiffFoldingTests.Wide(
            a: 1
            b: 2
        −   c: 3
        +   c: 30
            d: 4
          … (3 unchanged)
          )
        """)
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

/// A change deep in a state shows inside the values that hold it, as TCA's diff does.
@Suite struct DiffEnclosingLinesTests {
  private struct App: Equatable {
    var title = "Schools"
    var tabs: IdentifiedArrayOf<Tab> = []
    var version = 1
  }
  private struct Tab: Equatable, Identifiable {
    var id: Int
    var name = ""
    var screen: Screen = .list
    var badge = 0
  }
  private enum Screen: Equatable {
    case list
    case detail(Detail)
  }
  private struct Detail: Equatable {
    var school = "Seoul High"
    var city = "Seoul"
    var students = 0
    var rating = 3
    var isFavorite = false
  }

  @Test func aChangeThreeLevelsDownShowsTheFieldTheElementAndTheScreen() throws {
    var old = App()
    old.tabs = [
      Tab(id: 1, name: "Home"),
      Tab(id: 2, name: "Search", screen: .detail(Detail())),
      Tab(id: 3, name: "Settings"),
    ]
    var new = old
    new.tabs[id: 2]?.screen = .detail(Detail(rating: 5))
    let diff = try #require(stateDiff(old, new, context: 0))
    #expect(
      diff == """
          DiffEnclosingLinesTests.App(
            title: "Schools"
            tabs: [
          … (6 unchanged)
              [1]: DiffEnclosingLinesTests.Tab(
                id: 2
                name: "Search"
                screen: DiffEnclosingLinesTests.Screen.detail(
                  DiffEnclosingLinesTests.Detail(
          … (3 unchanged)
        −           rating: 3
        +           rating: 5
                    isFavorite: false
                  )
                )
                badge: 0
              )
          … (6 unchanged)
            ]
            version: 1
          )
        """)
  }
}
