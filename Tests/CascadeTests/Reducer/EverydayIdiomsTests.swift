import CascadeTesting
import Foundation
import Testing

@testable import Cascade

// The everyday idioms of a TCA app (issue 34): a binding with a limit, a shared collection, ids
// and dates from dependencies, an enum of editing states changed in place, a cancellable
// lookup. One small feature uses them all, run under a real `Store` and under a `TestStore`,
// with the same outcome.

private struct Note: Codable, Equatable, Identifiable, Sendable {
  let id: UUID
  var text: String
  var created: Date
}

extension SharedKey where Self == InMemoryKey<IdentifiedArrayOf<Note>>.Default {
  fileprivate static var notes: Self { Self[.inMemory("notes"), default: []] }
}

/// A note list: a form bound field by field, notes made with the uuid and date dependencies
/// into a shared list with a key-declared default, an editor presented as an enum case and
/// changed through its case, and a lookup that may never answer.
private struct Notes: Reducer {
  struct State: Equatable {
    @Shared(.notes) var notes: IdentifiedArrayOf<Note>
    var draft = ""
    var editor: Editor?
    var lookup: String?
  }
  enum Editor: Equatable, CasePathable {
    case editing(Draft)
    case confirmingDelete(UUID)
  }
  struct Draft: Equatable {
    var id: UUID
    var text: String
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case add
    case edit(UUID)
    case editText(String)
    case lookUp
    case lookedUp(String)
    case lookupFailed
    case cancelLookup
  }
  enum CancelID { case lookup }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.draft):
        state.draft = String(state.draft.prefix(20))
        return .none
      case .binding:
        return .none
      case .add:
        let note = Note(id: uuid(), text: state.draft, created: now)
        state.$notes.withLock { _ = $0.append(note) }
        state.draft = ""
        return .none
      case let .edit(id):
        guard let note = state.notes[id: id] else { return .none }
        state.editor = .editing(Draft(id: id, text: note.text))
        return .none
      case let .editText(text):
        state.editor?.modify(Editor.editing) { $0.text = text }
        return .none
      case .lookUp:
        return .run { send in
          let result = await Result { () async throws -> String in try await Task.never() }
          switch result {
          case let .success(text): await send(.lookedUp(text))
          // Cancelled: the send is dropped, as every send of a cancelled effect is.
          case .failure: await send(.lookupFailed)
          }
        }
        .cancellable(id: CancelID.lookup)
      case let .lookedUp(text):
        state.lookup = text
        return .none
      case .lookupFailed:
        state.lookup = "failed"
        return .none
      case .cancelLookup:
        return .cancel(id: CancelID.lookup)
      }
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct EverydayIdiomsTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  let created = Date(timeIntervalSince1970: 1_000)

  @Test func theIdiomsWorkInAStore() async {
    let store = withDependencies {
      $0.uuid = .incrementing
      $0.date.now = created
      $0.sharedStorage = .inMemory()
    } operation: {
      Store(initialState: Notes.State()) { Notes() }
    }
    #expect(store.state.notes.isEmpty)
    store.send(.set(\.draft, "Buy milk and bread for the week"))
    #expect(store.state.draft == "Buy milk and bread f")
    store.send(.add)
    #expect(
      Array(store.state.notes) == [
        Note(id: UUID(0), text: "Buy milk and bread f", created: created)
      ])
    store.send(.edit(UUID(0)))
    store.send(.editText("Milk"))
    #expect(store.state.editor == .editing(Notes.Draft(id: UUID(0), text: "Milk")))
    #expect(store.state.editor?.is(Notes.Editor.editing) == true)
    let lookup = store.send(.lookUp)
    store.send(.cancelLookup)
    await lookup.finish()
    #expect(store.state.lookup == nil, "a cancelled lookup sends nothing")
  }

  @Test func theIdiomsWorkTheSameInATestStore() async {
    let store = TestStore(initialState: Notes.State()) {
      Notes()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date.now = created
    }
    await store.send(.set(\.draft, "Buy milk and bread for the week")) {
      $0.draft = "Buy milk and bread f"
    }
    await store.send(.add) {
      $0.$notes.withLock {
        _ = $0.append(Note(id: UUID(0), text: "Buy milk and bread f", created: self.created))
      }
      $0.draft = ""
    }
    await store.send(.edit(UUID(0))) {
      $0.editor = .editing(Notes.Draft(id: UUID(0), text: "Buy milk and bread f"))
    }
    await store.send(.editText("Milk")) {
      $0.editor?.modify(Notes.Editor.editing) { $0.text = "Milk" }
    }
    await store.send(.lookUp)
    await store.send(.cancelLookup)
    await store.finish()
  }
}
