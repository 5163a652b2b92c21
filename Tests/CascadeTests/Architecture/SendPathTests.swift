// The walk the Architecture article follows: one `send` to a row of a `forEach` whose reducer
// returns a `.run` effect, which sends an action back, with an observer on the row's store.
// `.ci/send-path.sh` runs it twice in a coverage build, once stopping before the measured send
// (CASCADE_SEND_PATH=setup), and lists the library files whose lines ran more often in the run
// with it; in an ordinary run it checks that the walk does what the article says.

import CascadeTesting
import Foundation
import Observation
import Testing

@testable import Cascade

/// What the row's reducer has seen, read by the test without calling the library (a read of
/// the store's state would count as part of the send).
private final class Seen: @unchecked Sendable {
  // Written by the row's reducer and the observer, read by the test: all on the main actor.
  var done = 0
  var heard = 0
}

private struct Row: Reducer {
  let seen: Seen

  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var taps = 0
    var done = 0
  }
  enum Action: Equatable, Sendable {
    case tap
    case done
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      state.taps += 1
      return .run { send in await send(.done) }
    case .done:
      state.done += 1
      seen.done += 1
      return .none
    }
  }
}

private struct List: Reducer {
  let seen: Seen

  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
  }
  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Row>)
    case refresh
  }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: Action.rows) { Row(seen: seen) }
  }
}

@MainActor
@Suite struct SendPathTests {
  /// Waits until `condition` holds, for at most a minute of running time, without calling the
  /// library (`RunningTime` is the testing module's, outside what `.ci/send-path.sh` counts).
  private func wait(
    until condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    var time = RunningTime()
    while !condition() {
      if time.read() > .seconds(60) {
        Issue.record("waited a minute", sourceLocation: sourceLocation)
        return
      }
      await Task.yield()
    }
  }

  @Test func oneSendToARowWithARunEffect() async throws {
    let setupOnly = ProcessInfo.processInfo.environment["CASCADE_SEND_PATH"] == "setup"
    let seen = Seen()
    // A live store, as in an app: in a test process, a store made in the test context runs its
    // effects on the test's executor, a path of its own.
    let store = Store(initialState: List.State()) {
      List(seen: seen)
    } withDependencies: {
      $0.context = .live
    }
    let row = try #require(store.scope(state: \.rows, action: List.Action.rows, id: 1))
    func observe() {
      withObservationTracking {
        _ = row.state.done
      } onChange: {
        seen.heard += 1
      }
    }
    // A first send, not measured: what runs once per store or once per process is set up.
    observe()
    row.send(.tap)
    await wait { seen.done == 1 }
    observe()

    if !setupOnly {
      row.send(.tap)
      // Waits for the effect's action without reading the store. The effect's task ends in the
      // job that sent that action, on the main actor, before this test runs again.
      await wait { seen.done == 2 }
    }
    // Read in both runs, so that the reads are not counted as the send's.
    let rows = store.state.rows
    let (first, second) = (rows[id: 1], rows[id: 2])
    if setupOnly { return }

    #expect(first == Row.State(id: 1, taps: 2, done: 2))
    #expect(second == Row.State(id: 2))
    #expect(seen.heard == 2, "the observer of the row's store heard each send's batch")
  }
}
