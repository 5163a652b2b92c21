import Cascade
import CascadeTesting
import Foundation
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

/// A client whose test value is made of `unimplemented` endpoints, as a user writes it.
private struct Loader: Sendable {
  var load: @Sendable (Int) async throws -> Int
  var peek: @Sendable () -> Int
}
private enum LoaderKey: DependencyKey {
  static let liveValue = Loader(load: { $0 }, peek: { 0 })
  static let testValue = Loader(
    load: unimplemented("Loader.load"), peek: unimplemented("Loader.peek", placeholder: 0))
  /// The line of the `unimplemented` endpoints above.
  static let declarationLine: UInt = #line - 2
}
extension DependencyValues {
  fileprivate var loader: Loader {
    get { self[LoaderKey.self] }
    set { self[LoaderKey.self] = newValue }
  }
}

/// A feature that uses each built-in value with a test value that reports, in its reducer or
/// in an effect, and a user's client.
private struct Stamper: Reducer {
  struct State: Equatable { var stamps = 0 }
  enum Action {
    case uuid, random, peek
    case date, load
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var random
  @Dependency(\.loader) var loader

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .uuid:
      _ = uuid()
    case .random:
      _ = random { Int.random(in: 0..<10, using: &$0) }
    case .peek:
      _ = loader.peek()
    case .date:
      return .run { _ in _ = date() }
    case .load:
      return .run { _ in _ = try? await loader.load(1) }
    }
    state.stamps += 1
    return .none
  }
  /// The lines of the two `.run`s above.
  static let dateRunLine: UInt = #line - 8
  static let loadRunLine: UInt = #line - 7
}

private let thisFile = "CascadeTestingTests/TestFailureLocationTests.swift"

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

  // Issue 50, point 7: every built-in value and `unimplemented` report at the user's line,
  // as the clock does: the test's `send` for a reducer, the feature's `.run` for an effect.

  @Test(arguments: [Stamper.Action.uuid, .random, .peek])
  private func aValueUsedInAReducerIsReportedAtTheSend(_ action: Stamper.Action) async {
    let store = TestStore(initialState: Stamper.State()) { Stamper() }
    let line = #line + 2
    await withKnownIssue {
      await store.send(action) { $0.stamps = 1 }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("Unimplemented")
        && issue.sourceLocation?.fileID == thisFile && issue.sourceLocation?.line == line
    }
  }

  @Test func theDateUsedInAnEffectIsReportedAtItsRun() async {
    let store = TestStore(initialState: Stamper.State()) { Stamper() }
    await withKnownIssue {
      await store.send(.date)
      await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("DependencyValues.date")
        && issue.sourceLocation?.fileID == thisFile
        && issue.sourceLocation?.line == Int(Stamper.dateRunLine)
    }
  }

  @Test func anUnimplementedEndpointIsReportedAtItsRunAndNamesItsDeclaration() async {
    let store = TestStore(initialState: Stamper.State()) { Stamper() }
    await withKnownIssue {
      await store.send(.load)
      await store.finish()
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("'Loader.load'")
        && text.contains("Declared at \(thisFile):\(LoaderKey.declarationLine)")
        && issue.sourceLocation?.fileID == thisFile
        && issue.sourceLocation?.line == Int(Stamper.loadRunLine)
    }
  }

  /// A built-in value's report never names the library's file, where nothing can be fixed.
  @Test func aBuiltInValuesReportNamesNoLibraryFile() async {
    let store = TestStore(initialState: Stamper.State()) { Stamper() }
    await withKnownIssue {
      await store.send(.uuid) { $0.stamps = 1 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("DependencyValues.uuid") && !text.contains("Declared at")
        && issue.sourceLocation?.fileID.hasPrefix("Cascade/") == false
    }
  }
}
