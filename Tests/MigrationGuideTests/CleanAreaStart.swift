// CleanArea's start feature, ported from TCA (the "touchschool-cleanarea-refactoring" seed).
//
// The regions marked below are copied, character for character, into
// Sources/Cascade/Cascade.docc/MigratingFromTCA.md; ArticleSyncTests fails when they drift.
// The full app is Examples/CleanArea.

import Cascade
import CascadeTesting
import Testing

private struct Policy: Equatable, Identifiable, Sendable {
  var id: Int
  var title: String
}

// region: cleanarea-start
private struct StartFeature: Reducer {
  struct State: Equatable {
    var policies: [Policy] = []
    var path = StackState<Path.State>()
  }

  enum Action: Equatable {
    case openMain
    case path(StackActionOf<Path>)
  }

  /// The screens of the one root stack: one `Scope` per case, no macro.
  struct Path: Reducer {
    enum State: Equatable {
      case mainScene(MainFeature.State)
      case detailScene(DetailFeature.State)
    }

    enum Action: Equatable {
      case mainScene(MainFeature.Action)
      case detailScene(DetailFeature.Action)
    }

    var body: some Reducer<State, Action> {
      Scope(state: State.mainScene, action: Action.mainScene) { MainFeature() }
      Scope(state: State.detailScene, action: Action.detailScene) { DetailFeature() }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .openMain:
        state.path.append(.mainScene(MainFeature.State(policies: state.policies)))
        return .none

      // A tab of the main screen asks for a detail: push it onto this, the only, stack.
      case let .path(.element(_, .mainScene(.delegate(.showPolicy(policy))))):
        state.path.append(.detailScene(DetailFeature.State(policy: policy)))
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Path() }
  }
}
// endregion

// region: cleanarea-screens
/// The tab screen. It has no stack of its own: it asks the root to push.
private struct MainFeature: Reducer {
  enum Tab: Equatable { case all, bookmarks }

  struct State: Equatable {
    var policies: [Policy]
    var selectedTab = Tab.all
  }

  enum Action: Equatable {
    case tabSelected(Tab)
    case policyTapped(Policy)
    case delegate(Delegate)

    enum Delegate: Equatable { case showPolicy(Policy) }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .tabSelected(tab):
      state.selectedTab = tab
      return .none
    case let .policyTapped(policy):
      return .send(.delegate(.showPolicy(policy)))
    case .delegate:
      return .none
    }
  }
}

/// A pushed detail. It pops itself through `dismiss`; the root sees `.popFrom(id:)`.
private struct DetailFeature: Reducer {
  struct State: Equatable { var policy: Policy }
  enum Action: Equatable { case backTapped }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .backTapped:
      return .run { [dismiss] _ in await dismiss() }
    }
  }
}
// endregion

private let rent = Policy(id: 1, title: "Youth Rent Support")
private let jeonse = Policy(id: 2, title: "Jeonse Loan")

// region: cleanarea-test
@MainActor
@Test func aTabPushesItsDetailOntoTheRootStackAndBackPopsIt() async {
  let store = TestStore(initialState: StartFeature.State(policies: [rent, jeonse])) {
    StartFeature()
  }

  await store.send(.openMain) {
    $0.path.append(.mainScene(MainFeature.State(policies: [rent, jeonse])))
  }
  await store.send(.path(.element(id: 0, action: .mainScene(.tabSelected(.bookmarks))))) {
    $0.path[id: 0] = .mainScene(
      MainFeature.State(policies: [rent, jeonse], selectedTab: .bookmarks))
  }
  await store.send(.path(.element(id: 0, action: .mainScene(.policyTapped(jeonse)))))
  await store.receive(.path(.element(id: 0, action: .mainScene(.delegate(.showPolicy(jeonse)))))) {
    $0.path.append(.detailScene(DetailFeature.State(policy: jeonse)))
  }
  await store.send(.path(.element(id: 1, action: .detailScene(.backTapped))))
  await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
  await store.finish()
}
// endregion

@MainActor
@Test func theMainScreenStaysAtTheBottomWhenDetailsPop() async {
  var state = StartFeature.State(policies: [rent])
  state.path = [.mainScene(MainFeature.State(policies: [rent])), .detailScene(.init(policy: rent))]
  let store = TestStore(initialState: state) { StartFeature() }

  await store.send(.path(.element(id: 1, action: .detailScene(.backTapped))))
  await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
  #expect(store.state.path.ids == [0])
  await store.finish()
}
