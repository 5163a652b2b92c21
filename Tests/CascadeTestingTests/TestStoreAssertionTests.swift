import Cascade
import CascadeTesting
import Foundation
import Testing

/// A feature whose state holds identifiers and values that `==` sees but a dump may not.
private struct Rows: Reducer {
  struct State: Equatable, Sendable {
    var rows: [Row] = []
    var token = Token(value: 0)
    var stamp = Date(timeIntervalSince1970: 0)
    init() {}
    /// An initial row whose id comes from the dependencies, as an app's onboarding might.
    init(seeded: Void) {
      @Dependency(\.uuid) var uuid
      rows = [Row(id: uuid())]
    }
  }
  struct Row: Equatable, Sendable {
    var id: UUID
  }
  /// A value whose description and mirror hide what `==` compares.
  struct Token: Equatable, Sendable, CustomStringConvertible, CustomReflectable {
    var value: Int
    var description: String { "token" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
  }
  enum Action: Equatable, Sendable {
    case addRow
    case rotateToken
    case stamp
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addRow:
      state.rows.append(Row(id: uuid()))
    case .rotateToken:
      state.token.value += 1
    case .stamp:
      state.stamp = date.now
    }
    return .none
  }
}

@MainActor
@Suite(.hangGuard)
struct TestStoreAssertionTests {
  private func makeStore() -> TestStore<Rows.State, Rows.Action> {
    TestStore(initialState: Rows.State()) {
      Rows()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 1_000.5))
    }
  }

  @Test func aWrongUUIDExpectationFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.addRow) { $0.rows = [Rows.Row(id: UUID(incrementing: 1))] }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("UUID(00000000-0000-0000-0000-000000000001)")
        && text.contains("UUID(00000000-0000-0000-0000-000000000000)")
    }
  }

  @Test func anUnassertedUUIDChangeFails() async {
    let store = makeStore()
    await store.send(.addRow) { $0.rows = [Rows.Row(id: UUID(incrementing: 0))] }
    await withKnownIssue {
      await store.send(.addRow)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("was not expected to change")
    }
  }

  @Test func aWrongDateExpectationFailsWithTheDatesInTheDiff() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.stamp) { $0.stamp = Date(timeIntervalSince1970: 1_000) }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("−   stamp: Date(1970-01-01T00:16:40Z)")
        && text.contains("+   stamp: Date(1970-01-01T00:16:40.5Z)")
    }
  }

  @Test func statesThatPrintAlikeButDifferStillFailAndNameTheType() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.rotateToken)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("print alike, but '==' says they differ")
        && text.contains("'token', a 'Rows.Token'")
    }
  }

  @Test func theInitialStateAndTheStoreShareOnePreparedSetOfDependencies() async {
    let store = TestStore(initialState: Rows.State(seeded: ())) {
      Rows()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    #expect(store.state.rows.map(\.id) == [UUID(incrementing: 0)])
    await store.send(.addRow) { $0.rows.append(Rows.Row(id: UUID(incrementing: 1))) }
  }

  @Test func prepareDependenciesRunsOnce() {
    var calls = 0
    let store = TestStore(initialState: Rows.State()) {
      Rows()
    } withDependencies: { _ in
      calls += 1
    }
    #expect(calls == 1)
    _ = store
  }
}
