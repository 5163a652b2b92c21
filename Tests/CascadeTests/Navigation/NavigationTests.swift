import CascadeTesting
import Foundation
import Testing

@testable import Cascade

@Suite struct StackStateTests {
  @Test func pushPopAndAddressByID() {
    var stack = StackState<String>()
    let a = stack.append("a")
    let b = stack.append("b")
    let c = stack.append("c")
    #expect(stack.ids == [0, 1, 2])
    #expect([a, b, c] == [0, 1, 2])
    #expect(stack[id: b] == "b")
    #expect(Array(stack) == ["a", "b", "c"])
    let popped = stack.popLast()
    #expect(popped == "c")
    stack.append("d")
    #expect(stack.ids == [0, 1, 3])  // ids are never reused
    stack[id: 1] = "B"
    #expect(Array(stack) == ["a", "B", "d"])
  }

  @Test func popFromAndPopToRemoveSeveralLevelsAtOnce() {
    var stack: StackState<Int> = [1, 2, 3, 4, 5]
    let poppedFrom = stack.pop(from: 3)
    #expect(poppedFrom)
    #expect(Array(stack) == [1, 2, 3])
    let poppedTo = stack.pop(to: 0)
    #expect(poppedTo)
    #expect(Array(stack) == [1])
    let missingFrom = stack.pop(from: 9)
    let missingTo = stack.pop(to: 9)
    #expect(!missingFrom && !missingTo)
    stack[id: 0] = nil
    #expect(stack.isEmpty)
  }

  @Test func equalityHashingAndCodable() throws {
    var a: StackState<Int> = [1, 2]
    var b: StackState<Int> = [1, 2]
    #expect(a == b)
    a.removeLast()
    a.append(2)  // same element, new id
    #expect(a != b)
    b.removeLast()
    b.append(2)
    #expect(a == b)
    #expect(Set([a, b]).count == 1)
    let decoded = try JSONDecoder().decode(
      StackState<Int>.self, from: try JSONEncoder().encode(a))
    #expect(Array(decoded) == [1, 2])
  }
}

@MainActor
@Suite(.hangGuard)
struct NavigationTests {
  let effect = LongEffect()

  fileprivate func makeStore(_ state: NavigationRoot.State = NavigationRoot.State()) -> TestStore<
    NavigationRoot.State, NavigationRoot.Action
  > {
    TestStore(initialState: state) { NavigationRoot(effect: effect) }
  }

  // MARK: Stacks

  @Test func pushWithAnIDInsertsBeforeTheParentRunsAndPopFromRunsTheParentFirst() async {
    let store = makeStore()
    await store.send(.path(.push(id: 0, state: .detail(Detail.State(title: "A"))))) {
      $0.path.append(.detail(Detail.State(title: "A")))
      $0.log = ["pushed #0, stack has 1"]  // the parent saw the new screen
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.log.append("popping #0, stack has 1")  // the parent saw the screen still there
      $0.path.removeAll()
    }
  }

  @Test func elementActionsRunTheScreenThenTheParent() async {
    let store = makeStore()
    await store.send(.showDetail("A")) { $0.path.append(.detail(Detail.State(title: "A"))) }
    await store.send(.path(.element(id: 0, action: .detail(.saveTapped)))) {
      $0.path[id: 0] = .detail(Detail.State(title: "A", saved: true))
    }
  }

  @Test func aScreenDismissesItselfThroughAnActionTheParentSees() async {
    let store = makeStore()
    await store.send(.showDetail("A")) { $0.path.append(.detail(Detail.State(title: "A"))) }
    await store.send(.showDetail("B")) { $0.path.append(.detail(Detail.State(title: "B"))) }
    await store.send(.path(.element(id: 1, action: .detail(.closeTapped))))
    await store.receive(.path(.popFrom(id: 1))) {
      $0.log = ["popping #1, stack has 2"]
      $0.path.pop(from: 1)
    }
    await store.finish()
  }

  @Test func screensSeeThatTheyArePresented() async {
    let store = makeStore()
    await store.send(.showDetail("A")) { $0.path.append(.detail(Detail.State(title: "A"))) }
    await store.send(.path(.element(id: 0, action: .detail(.checkPresented))))
    await store.receive(.path(.element(id: 0, action: .detail(.presentedChecked(true))))) {
      $0.path[id: 0] = .detail(Detail.State(title: "A", sawPresented: true))
    }
  }

  @Test func poppingCancelsTheScreensEffectsSeveralLevelsAtOnce() async {
    let store = makeStore()
    store.exhaustivity = .off
    for title in ["A", "B", "C"] { await store.send(.showDetail(title)) }
    for id in [0, 1, 2] {
      await store.send(.path(.element(id: StackElementID(rawValue: id), action: .detail(.listen))))
    }
    await effect.started.wait(for: 3)
    await store.send(.path(.popFrom(id: 1)))  // pops B and C at once
    await effect.ended.wait(for: 2)
    #expect(effect.ended.count == 2)
    #expect(store.state.path.count == 1)
    await store.send(.homeTapped)  // pop to root by changing state
    await effect.ended.wait(for: 3)
    #expect(store.state.path.isEmpty)
  }

  @Test func theSameCancelIDOnTwoScreensNeverCollides() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.showDetail("A"))
    await store.send(.showDetail("B"))
    await store.send(.path(.element(id: 0, action: .detail(.listen))))
    await store.send(.path(.element(id: 1, action: .detail(.listen))))  // same id "listen"
    await effect.started.wait(for: 2)
    #expect(effect.ended.count == 0)  // the second did not cancel the first
    await store.skipInFlightEffects()
  }

  @Test func aStaleActionForAPoppedScreenIsReportedAndTheParentStillRuns() async {
    let store = makeStore()
    await store.send(.showDetail("A")) { $0.path.append(.detail(Detail.State(title: "A"))) }
    await store.send(.path(.popFrom(id: 0))) {
      $0.log = ["popping #0, stack has 1"]
      $0.path.removeAll()
    }
    await withKnownIssue {
      await store.send(.path(.element(id: 0, action: .detail(.saveTapped))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("not on the stack (id #0)") }
        && (NavigationRoot.bodyStart...NavigationRoot.bodyEnd).contains(
          issue.sourceLocation?.line ?? 0)
    }
    await withKnownIssue {
      await store.send(.path(.popFrom(id: 0))) { $0.log.append("popping #0, stack has 0") }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("'popFrom' for a screen that is not on the stack")
      }
    }
  }

  @Test func theCleanAreaShapeATabPushesADetailOntoTheRootStack() async {
    let store = makeStore()
    await store.send(.showTabs) { $0.path.append(.tabs(Tabs.State())) }
    await store.send(.path(.element(id: 0, action: .tabs(.tabSelected(2))))) {
      $0.path[id: 0] = .tabs(Tabs.State(selectedTab: 2))
    }
    await store.send(.path(.element(id: 0, action: .tabs(.itemSelected("Youth rent support")))))
    await store.receive(
      .path(.element(id: 0, action: .tabs(.delegate(.showDetail("Youth rent support")))))
    ) {
      $0.log = ["tab #0 asked for Youth rent support"]
      $0.path.append(.detail(Detail.State(title: "Youth rent support")))
    }
    // The detail pushes a related policy, two levels deep, then home pops both at once.
    await store.send(.path(.element(id: 1, action: .detail(.relatedTapped("Housing loan")))))
    await store.receive(
      .path(.element(id: 1, action: .detail(.delegate(.openRelated("Housing loan")))))
    ) {
      $0.path.append(.detail(Detail.State(title: "Housing loan")))
    }
    #expect(store.state.path.ids == [0, 1, 2])
    await store.send(.path(.popFrom(id: 1))) {
      $0.log.append("popping #1, stack has 3")
      $0.path.pop(from: 1)
    }
    #expect(store.state.path.ids == [0])
  }

  // MARK: Presentation

  @Test func aPresentedChildDismissesItselfAndDismissRunsTheParentFirst() async {
    let store = makeStore()
    await store.send(.presentSheet("S")) { $0.sheet = Detail.State(title: "S") }
    await store.send(.sheet(.presented(.saveTapped))) {
      $0.sheet?.saved = true
      $0.log = ["sheet did saveTapped"]
    }
    await store.send(.sheet(.presented(.closeTapped))) { $0.log.append("sheet did closeTapped") }
    await store.receive(.sheet(.dismiss)) {
      $0.log.append("dismissing sheet S")  // the parent saw the sheet still there
      $0.sheet = nil
    }
    await store.finish()
  }

  @Test func dismissingAPresentationCancelsItsEffectsAndPresentingTheSameChildAgainDoesNot()
    async
  {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.presentSheet("S"))
    await store.send(.sheet(.presented(.listen)))
    await effect.started.wait(for: 1)
    // The sheet's state is neither Identifiable nor an enum: another value there is the same
    // child, as in TCA, so its effects go on.
    await store.send(.presentSheet("T"))
    await store.send(.sheet(.dismiss))  // dismissed
    await effect.ended.wait(for: 1)
    #expect(effect.ended.count == 1)
  }

  @Test func editingAPresentedChildInPlaceKeepsItsEffects() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.presentSheet("S"))
    await store.send(.sheet(.presented(.listen)))
    await effect.started.wait(for: 1)
    await store.send(.sheet(.presented(.saveTapped)))  // the child changes in place
    #expect(effect.ended.count == 0)
    await store.skipInFlightEffects()
  }

  @Test func aStaleActionForADismissedChildIsReported() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.sheet(.presented(.saveTapped))) { $0.log = ["sheet did saveTapped"] }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("while nothing was presented") }
    }
  }

  @Test func alertsGoAwayWhenAButtonIsSentBeforeTheParentSeesIt() async {
    let store = makeStore()
    await store.send(.deleteTapped) {
      $0.alert = AlertState {
        "Delete?"
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }
        ButtonState(role: .cancel) { "Cancel" }
      }
    }
    #expect(
      store.state.alert?.description == #"Alert "Delete?" [Delete (destructive)] [Cancel (cancel)]"#
    )
    let delete = store.state.alert!.buttons[0]
    await store.send(.alert(.tapped(delete))) {
      $0.alert = nil
      $0.log = ["alert confirmDeletion, alert is gone"]
    }
    // Inside the closure `store.state` is the state before the action: the alert is written out.
    await store.send(.deleteTapped) {
      $0.alert = AlertState {
        "Delete?"
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }
        ButtonState(role: .cancel) { "Cancel" }
      }
    }
    let cancel = store.state.alert!.buttons[1]
    await store.send(.alert(.tapped(cancel))) { $0.alert = nil }
  }

  @Test func presentationNestedInAStackScreenDismissesOnlyItself() async {
    let store = makeStore()
    await store.send(.showDetail("A")) { $0.path.append(.detail(Detail.State(title: "A"))) }
    await store.send(.path(.element(id: 0, action: .detail(.editTapped)))) {
      $0.path[id: 0] = .detail(Detail.State(title: "A", editor: Editor.State(text: "A")))
    }
    await store.send(.path(.element(id: 0, action: .detail(.editor(.presented(.doneTapped))))))
    await store.receive(.path(.element(id: 0, action: .detail(.editor(.dismiss))))) {
      $0.path[id: 0] = .detail(Detail.State(title: "A"))
    }
    #expect(store.state.path.count == 1)  // the screen itself stays
    await store.finish()
  }

  @Test func dismissFromAnEffectOutsideAnyPresentationWarns() async {
    struct Lonely: Reducer {
      @Dependency(\.dismiss) var dismiss
      func reduce(into state: inout Int, action: Void) -> Effect<Void> {
        .run { _ in await dismiss() }
      }
    }
    // A real store: at the root of a test store the test store stands in for the parent, and
    // the feature is dismissed (`TestStoreDismissTests`).
    reportRuntimeWarningsAsTestFailures()
    let store = Store(initialState: 0) { Lonely() }
    await withKnownIssue {
      await store.send(()).finish()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("nothing to dismiss") }
    }
  }

  // MARK: Store scoping

  @Test func scopedStoresForScreensAndPresentations() async {
    let store = Store(initialState: NavigationRoot.State()) { NavigationRoot(effect: effect) }
    store.send(.showDetail("A"))
    store.send(.showDetail("B"))
    func screens() -> [Store<Path.State, Path.Action>] {
      store.scope(state: \.path, action: NavigationRoot.Action.path)
    }
    let first = screens()
    #expect(first.count == 2)
    first[1].send(.detail(.saveTapped))
    #expect(store.path[id: 1] == .detail(Detail.State(title: "B", saved: true)))
    #expect(screens()[1] === first[1])  // scoped the same way from the same place

    func sheet() -> Store<Detail.State, Detail.Action>? {
      store.scope(state: \.$sheet, action: NavigationRoot.Action.sheet)
    }
    #expect(sheet() == nil)
    store.send(.presentSheet("S"))
    let presented = sheet()
    presented?.send(.saveTapped)
    #expect(store.sheet?.saved == true)
    store.send(.presentSheet("T"))  // the same child identity: the same presentation
    #expect(sheet() === presented)
  }
}
