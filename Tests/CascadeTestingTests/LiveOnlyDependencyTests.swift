import CascadeTesting
import Testing

@testable import Cascade

// Issue 50, point 2: a client that declares only its live value (the "Meet the Composable
// Architecture" tutorial's number-fact client) can be overridden one closure at a time in a
// test. Setting `$0.numberFact.fetch` reads the client first; that read is not a use of it and
// reports nothing, as in swift-dependencies. A feature that uses such a client without an
// override still fails the test.

private struct NumberFactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
  var favorite: @Sendable () -> Int
}

extension NumberFactClient: DependencyKey {
  static let liveValue = NumberFactClient(
    fetch: { "\($0) is a live number." }, favorite: { 7 })
}

extension DependencyValues {
  fileprivate var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

private struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
  }
  enum Action: Equatable {
    case factButtonTapped
    case factResponse(String)
  }
  @Dependency(\.numberFact) var numberFact

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .factButtonTapped:
      return .run { [count = state.count] send in
        await send(.factResponse(try await numberFact.fetch(count)))
      }
    case let .factResponse(fact):
      state.fact = fact
      return .none
    }
  }
}

private let noTestValue = "has no test value"

@MainActor
@Suite(.hangGuard)
struct LiveOnlyDependencyTests {
  @Test func aTestStoreOverridesOneClosureOfALiveOnlyClient() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }
    await store.send(.factButtonTapped)
    await store.receive(.factResponse("0 is a good number.")) { $0.fact = "0 is a good number." }
  }

  @Test func aStoreOverridesOneClosureOfALiveOnlyClient() async {
    let (fact, warnings) = await RuntimeWarnings.capturing {
      let store = Store(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { "\($0) is a good number." }
      }
      await store.send(.factButtonTapped).finish()
      return store.state.fact
    }
    #expect(fact == "0 is a good number.")
    #expect(warnings.map(\.message).filter { $0.contains(noTestValue) } == [])
  }

  @Test func withDependenciesAndADependencyModifierSetOneClosureWithoutAReport() async {
    let (facts, warnings) = await RuntimeWarnings.capturing {
      let direct = try? await withDependencies {
        $0.context = .test
        $0.numberFact.fetch = { "\($0) from withDependencies." }
      } operation: {
        try await DependencyValues.current.numberFact.fetch(1)
      }
      let store = withDependencies {
        $0.context = .test
      } operation: {
        Store(initialState: Counter.State()) {
          Counter().dependency(\.numberFact.fetch, { "\($0) from a modifier." })
        }
      }
      await store.send(.factButtonTapped).finish()
      return [direct, store.state.fact]
    }
    #expect(facts == ["1 from withDependencies.", "0 from a modifier."])
    #expect(warnings.map(\.message).filter { $0.contains(noTestValue) } == [])
  }

  /// The other closures of a client set one closure at a time are the live value's: setting
  /// `fetch` is no promise about `favorite`, and a test that uses it gets the live one, as in
  /// swift-dependencies.
  @Test func theClosuresATestDidNotSetAreTheLiveOnes() {
    let favorite = withDependencies {
      $0.context = .test
      $0.numberFact.fetch = { _ in "" }
    } operation: {
      DependencyValues.current.numberFact.favorite()
    }
    #expect(favorite == 7)
  }

  @Test func aFeatureUsingALiveOnlyClientWithoutAnOverrideStillFailsATestStore() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await withKnownIssue {
      await store.send(.factButtonTapped)
      await store.receive(.factResponse("0 is a live number.")) { $0.fact = "0 is a live number." }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(noTestValue)
    }
  }

  @Test func aFeatureUsingALiveOnlyClientWithoutAnOverrideStillWarnsInAStore() async {
    let (_, warnings) = await RuntimeWarnings.capturing {
      let store = withDependencies {
        $0.context = .test
      } operation: {
        Store(initialState: Counter.State()) { Counter() }
      }
      await store.send(.factButtonTapped).finish()
    }
    #expect(warnings.map(\.message).filter { $0.contains(noTestValue) }.count == 1)
  }

  /// A default read while setting one of its closures is not kept: values that share the
  /// same defaults but were not set still report the client when they use it.
  @Test func aReadWhileSettingLeavesNoSilentDefaultBehind() async {
    var values = DependencyValues().withFreshCache()
    values.context = .test
    let untouched = values
    let (_, whileSetting) = await RuntimeWarnings.capturing {
      DependencyValues._set(&values) { $0.numberFact.fetch = { _ in "" } }
    }
    let (_, whenUsed) = await RuntimeWarnings.capturing { _ = untouched.numberFact }
    #expect(whileSetting.map(\.message).filter { $0.contains(noTestValue) }.count == 0)
    #expect(whenUsed.map(\.message).filter { $0.contains(noTestValue) }.count == 1)
  }
}
