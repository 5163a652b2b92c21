import Cascade
import CascadeTesting
import Testing

/// An effect that sleeps on the clock dependency, which a test may forget to set.
private struct Sleeper: Reducer {
  struct State: Equatable {}
  enum Action { case start }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in try await clock.sleep(for: .seconds(1)) }
  }
  /// The line of the `.run` above.
  static let runLine: UInt = #line - 3
}

private struct Lookup: Sendable { var value: Int }
private enum LookupKey: DependencyKey {
  static let liveValue = Lookup(value: 1)
}
extension DependencyValues {
  fileprivate var lookup: Lookup {
    get { self[LookupKey.self] }
    set { self[LookupKey.self] = newValue }
  }
}

/// A reducer that reads a dependency with no test value.
private struct Reader: Reducer {
  struct State: Equatable { var value = 0 }
  enum Action { case read }

  @Dependency(\.lookup) var lookup

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.value = lookup.value
    return .none
  }
}

/// A failure the user causes is reported at the user's line: the library's own warnings about
/// a dependency a test did not set name the test's `send`, or the effect's `.run`, not a line in
/// Cascade.
@MainActor
@Suite(.hangGuard)
struct TestFailureLocationTests {
  @Test func aClockLeftUnsetIsReportedAtTheEffectThatUsedIt() async {
    let store = TestStore(initialState: Sleeper.State()) { Sleeper() }
    await withKnownIssue {
      await store.send(.start)
      await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("'continuousClock' dependency was used")
        && issue.sourceLocation?.fileID == "CascadeTestingTests/TestFailureLocationTests.swift"
        && issue.sourceLocation?.line == Int(Sleeper.runLine)
    }
  }

  /// A key that gives only its `liveValue` fixes its value's type with it; the app uses it.
  @Test func aKeyWithOnlyALiveValueServesTheApp() {
    let value = withDependencies {
      $0.context = .live
    } operation: {
      DependencyValues.current.lookup.value
    }
    #expect(value == 1)
  }

  @Test func aDependencyWithoutATestValueIsReportedAtTheSend() async {
    let store = TestStore(initialState: Reader.State()) { Reader() }
    let line = #line + 2
    await withKnownIssue {
      await store.send(.read) { $0.value = 1 }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("has no test value")
        && issue.sourceLocation?.fileID == "CascadeTestingTests/TestFailureLocationTests.swift"
        && issue.sourceLocation?.line == line
    }
  }
}
