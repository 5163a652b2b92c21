@testable import Cascade

/// A screen that can save, dismiss itself, listen until cancelled, and present an editor.
struct Detail: Reducer {
  struct State: Equatable, Sendable {
    var title: String
    var saved = false
    var sawPresented: Bool?
    @PresentationState var editor: Editor.State?
  }
  enum Action: Equatable, Sendable {
    case saveTapped
    case closeTapped
    case checkPresented
    case presentedChecked(Bool)
    case listen
    case editTapped
    case editor(PresentationAction<Editor.Action>)
    case relatedTapped(String)
    case delegate(Delegate)
    enum Delegate: Equatable, Sendable { case openRelated(String) }
  }
  let effect: LongEffect
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .saveTapped:
        state.saved = true
        return .none
      case .closeTapped:
        return .run { _ in await dismiss() }
      case .checkPresented:
        return .run { send in await send(.presentedChecked(isPresented)) }
      case let .presentedChecked(value):
        state.sawPresented = value
        return .none
      case .listen:
        return effect.run().cancellable(id: "listen")
      case .editTapped:
        state.editor = Editor.State(text: state.title)
        return .none
      case .editor:
        return .none
      case let .relatedTapped(title):
        return .send(.delegate(.openRelated(title)))
      case .delegate:
        return .none
      }
    }
    .ifLet(\.$editor, action: Action.editor) { Editor() }
  }
}

/// A presented editor that can close itself.
struct Editor: Reducer {
  struct State: Equatable, Sendable { var text: String }
  enum Action: Equatable, Sendable {
    case textChanged(String)
    case doneTapped
  }
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .textChanged(text):
      state.text = text
      return .none
    case .doneTapped:
      return .run { _ in await dismiss() }
    }
  }
}

/// The destinations of the root stack, written without macros: one Scope per case.
struct Path: Reducer {
  enum State: Equatable, Sendable {
    case detail(Detail.State)
    case tabs(Tabs.State)
  }
  enum Action: Equatable, Sendable {
    case detail(Detail.Action)
    case tabs(Tabs.Action)
  }
  let effect: LongEffect

  var body: some Reducer<State, Action> {
    Scope(state: State.detail, action: Action.detail) { Detail(effect: effect) }
    Scope(state: State.tabs, action: Action.tabs) { Tabs() }
  }
}

/// A tab screen: selecting an item in a tab asks the root to push a detail.
struct Tabs: Reducer {
  struct State: Equatable, Sendable { var selectedTab = 0 }
  enum Action: Equatable, Sendable {
    case tabSelected(Int)
    case itemSelected(String)
    case delegate(Delegate)
    enum Delegate: Equatable, Sendable { case showDetail(String) }
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .tabSelected(tab):
      state.selectedTab = tab
      return .none
    case let .itemSelected(title):
      return .send(.delegate(.showDetail(title)))
    case .delegate:
      return .none
    }
  }
}

/// The root: one stack, a sheet and an alert.
struct NavigationRoot: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Path.State>()
    @PresentationState var sheet: Detail.State?
    @PresentationState var alert: AlertState<Action.Alert>?
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Path>)
    case sheet(PresentationAction<Detail.Action>)
    case alert(PresentationAction<Alert>)
    case showDetail(String)
    case showTabs
    case presentSheet(String)
    case deleteTapped
    case homeTapped
    enum Alert: Equatable, Sendable { case confirmDeletion }
  }
  let effect: LongEffect

  static let bodyStart = #line
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .path(.element(id, .tabs(.delegate(.showDetail(title))))):
        state.log.append("tab \(id) asked for \(title)")
        state.path.append(.detail(Detail.State(title: title)))
      case let .path(.element(_, .detail(.delegate(.openRelated(title))))):
        state.path.append(.detail(Detail.State(title: title)))
      case let .path(.popFrom(id)):
        state.log.append("popping \(id), stack has \(state.path.count)")
      case let .path(.push(id, _)):
        state.log.append("pushed \(id), stack has \(state.path.count)")
      case .path:
        break
      case let .sheet(.presented(childAction)):
        state.log.append("sheet did \(childAction)")
      case .sheet(.dismiss):
        state.log.append("dismissing sheet \(state.sheet?.title ?? "nil")")
      case let .alert(.presented(alertAction)):
        state.log.append("alert \(alertAction), alert is \(state.alert == nil ? "gone" : "shown")")
      case .alert(.dismiss):
        break
      case let .showDetail(title):
        state.path.append(.detail(Detail.State(title: title)))
      case .showTabs:
        state.path.append(.tabs(Tabs.State()))
      case let .presentSheet(title):
        state.sheet = Detail.State(title: title)
      case .deleteTapped:
        state.alert = AlertState {
          "Delete?"
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }
          ButtonState(role: .cancel) { "Cancel" }
        }
      case .homeTapped:
        state.path.removeAll()
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { Path(effect: effect) }
    .ifLet(\.$sheet, action: Action.sheet) { Detail(effect: effect) }
    .ifLet(\.$alert, action: Action.alert)
  }
  static let bodyEnd = #line
}
