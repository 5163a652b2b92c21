import CascadeTesting
import Testing

@testable import Cascade

private enum Screen: Equatable, CasePathable {
  case form(Form)
  case alert(String)
  case empty

  struct Form: Equatable {
    var title = ""
    var attendees: [String] = []
  }
}

@MainActor
@Suite(.hangGuard)
struct CasePathableTests {
  @Test func modifyChangesThePayloadOfTheCurrentCase() {
    var screen = Screen.form(Screen.Form(title: "Design"))
    screen.modify(Screen.form) { $0.title = "Engineering" }
    #expect(screen == .form(Screen.Form(title: "Engineering")))
  }

  @Test func modifyOfAnotherCaseChangesNothingAndReportsAnIssue() async {
    var screen = Screen.alert("Delete?")
    let line = #line + 2
    let (_, warnings) = await RuntimeWarnings.capturing {
      screen.modify(Screen.form) { $0.title = "Engineering" }
    }
    #expect(screen == .alert("Delete?"))
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.contains("the value is .alert") == true)
    #expect(warnings.first?.line == UInt(line))
  }

  @Test func modifyThroughOptionalChainingSkipsNil() {
    var screen: Screen? = nil
    screen?.modify(Screen.form) { $0.title = "x" }
    #expect(screen == nil)
  }

  @Test func isAndCaseSubscriptReadTheCase() {
    var screen = Screen.alert("Delete?")
    #expect(screen.is(Screen.alert))
    #expect(!screen.is(Screen.form))
    #expect(screen[case: Screen.alert] == "Delete?")
    #expect(screen[case: Screen.form] == nil)
    screen[case: Screen.form] = Screen.Form(title: "New")
    #expect(screen == .form(Screen.Form(title: "New")))
    screen[case: Screen.alert] = nil
    #expect(screen == .form(Screen.Form(title: "New")))
  }

  @Test func aStackScreenIsReadAndChangedThroughItsCase() {
    var path = StackState<Screen>([.form(Screen.Form(title: "A")), .alert("B")])
    let ids = path.ids
    #expect(path[id: ids[0], case: Screen.form]?.title == "A")
    #expect(path[id: ids[1], case: Screen.form] == nil)
    path[id: ids[0], case: Screen.form]?.attendees.append("Blob")
    #expect(path[id: ids[0]] == .form(Screen.Form(title: "A", attendees: ["Blob"])))
    path[id: ids[0], case: Screen.form] = nil
    #expect(path.ids == [ids[1]])
  }

  @Test func aStackScreenChangedThroughAnotherCaseIsReportedAndKept() async {
    var path = StackState<Screen>([.alert("B")])
    let id = path.ids[0]
    let line = #line + 2
    let (_, warnings) = await RuntimeWarnings.capturing {
      path[id: id, case: Screen.form]?.title = "x"
      path[id: id, case: Screen.form] = nil
      path[id: 42, case: Screen.alert] = "nobody"
    }
    #expect(path == StackState([.alert("B")]))
    #expect(warnings.count == 3)
    #expect(warnings.first?.message.contains("is .alert") == true)
    #expect(warnings.first?.line == UInt(line))
    #expect(warnings.last?.message.contains("is not on the stack") == true)
  }

  @Test func aTestStoreAssertionModifiesTheCaseItExpects() async {
    struct Feature: Reducer {
      struct State: Equatable { var screen = Screen.form(Screen.Form()) }
      enum Action {
        case retitle(String)
        case showAlert
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .retitle(title): state.screen.modify(Screen.form) { $0.title = title }
        case .showAlert: state.screen = .alert("Sure?")
        }
        return .none
      }
    }
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.retitle("Daily")) {
      $0.screen.modify(Screen.form) { $0.title = "Daily" }
    }
    await store.send(.showAlert) { $0.screen = .alert("Sure?") }
    await withKnownIssue {
      await store.send(.retitle("Weekly")) {
        $0.screen.modify(Screen.form) { $0.title = "Weekly" }
      }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("modify could not change")
    }
  }
}
