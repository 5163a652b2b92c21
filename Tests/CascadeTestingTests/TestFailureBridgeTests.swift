import Cascade
import CascadeTestSupport
import CascadeTesting
import Testing
import XCTest

private struct UsesUnregistered: Reducer {
  @Dependency(Unregistered.self) var unregistered
  func reduce(into state: inout Int, action: Void) -> Effect<Void> {
    _ = unregistered
    state += 1
    return .none
  }
}

private struct Parent: Reducer {
  struct State { var child: Int? }
  enum Action { case child(Void) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: Action.child) { UsesUnregistered() }
  }
}

@MainActor
@Suite struct TestFailureBridgeTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  @Test func aDependencyWithoutATestValueFailsTheTestAtItsPointOfUse() {
    let store = Store(initialState: 0) { UsesUnregistered() }
    withKnownIssue {
      store.send(())
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'Unregistered' was used in a test") }
    }
    #expect(store.state == 1)  // the test fails, the program goes on
  }

  @Test func anActionForAnAbsentChildFailsTheTest() {
    let store = Store(initialState: Parent.State()) { Parent() }
    withKnownIssue {
      store.send(.child(()))
    } matching: { issue in
      issue.sourceLocation?.fileID == "CascadeTestingTests/TestFailureBridgeTests.swift"
    }
  }

  @Test func anUnimplementedEndpointFailsTheTest() async {
    let fetch: @Sendable (Int) async throws -> String = unimplemented("Client.fetch")
    await withKnownIssue {
      _ = try? await fetch(1)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'Client.fetch'") }
    }
  }
}

#if !canImport(Darwin)
  /// The same failures reach XCTest when an XCTest test causes them. (Linux's XCTest funnels
  /// every failure through `recordFailure`, which this case intercepts to check it.)
  final class TestFailureBridgeXCTests: XCTestCase {
    private var intercepted: [(description: String, file: String, line: Int)] = []

    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      intercepted.append((description, filePath, lineNumber))
    }

    func testAnUnimplementedEndpointFailsAnXCTest() async {
      reportRuntimeWarningsAsTestFailures()
      let fetch: @Sendable (Int) async throws -> String = unimplemented("Client.fetch")
      let line = #line - 1
      _ = try? await fetch(1)
      let failures = intercepted
      intercepted = []
      if failures.count != 1 || !failures[0].description.contains("'Client.fetch'")
        || failures[0].file != "CascadeTestingTests/TestFailureBridgeTests.swift"
        || failures[0].line != line
      {
        super.recordFailure(
          withDescription: "expected one failure for Client.fetch, got \(failures)",
          inFile: #filePath, atLine: #line, expected: true)
      }
    }

    @MainActor
    func testATestStoreAssertionFailsAnXCTestAtItsLine() async {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Void> { state, _ in
          state += 1
          return .none
        }
      }
      let line = #line + 1
      await store.send(()) { $0 = 2 }
      let failures = intercepted
      intercepted = []
      if failures.count != 1 || !failures[0].description.contains("− 2")
        || !failures[0].description.contains("+ 1") || failures[0].line != line
      {
        super.recordFailure(
          withDescription: "expected one state failure with a diff, got \(failures)",
          inFile: #filePath, atLine: #line, expected: true)
      }
    }
  }
#endif
