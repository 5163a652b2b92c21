import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

@testable import Cascade

/// A client written the way the example apps write theirs: a struct of closures.
private struct GreetingClient: Sendable {
  var greet: @Sendable (String) -> String
}

extension GreetingClient: DependencyKey {
  static let liveValue = GreetingClient { "Hello, \($0)!" }
  static let testValue = GreetingClient { _ in
    reportUnimplemented("GreetingClient.greet")
    return ""
  }
}

/// A key with no test value: using it in a test must fail that test.
private struct LiveOnlyClient: DependencyKey, Sendable {
  var name: String
  static let liveValue = LiveOnlyClient(name: "live")
  static let previewValue = LiveOnlyClient(name: "preview")
}

/// Counts how often its default values are computed.
private let computations = Guarded<[String: Int]>([:])
private struct CountedKey: DependencyKey {
  static var liveValue: Int {
    computations.withLock { $0["live", default: 0] += 1 }
    return 1
  }
  static var testValue: Int {
    computations.withLock { $0["test", default: 0] += 1 }
    return 2
  }
}

extension DependencyValues {
  fileprivate var greeting: GreetingClient {
    get { self[GreetingClient.self] }
    set { self[GreetingClient.self] = newValue }
  }
}

private struct Greeter: Reducer {
  struct State: Equatable, Sendable { var greetings: [String] = [] }
  enum Action: Equatable, Sendable {
    case greet(String)
    case greetLater(String)
    case greeted(String)
  }
  @Dependency(\.greeting) var greeting

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .greet(name):
      state.greetings.append(greeting.greet(name))
      return .none
    case let .greetLater(name):
      return .run { send in await send(.greeted(greeting.greet(name))) }
    case let .greeted(text):
      state.greetings.append(text)
      return .none
    }
  }
}

/// Reads one dependency through the other.
private struct OverrideReader: Reducer {
  enum Action: Equatable, Sendable { case read }
  @Dependency(\.testNumber) var number
  @Dependency(\.greeting) var greeting
  func reduce(into state: inout [String], action: Action) -> Effect<Action> {
    state.append("\(number): \(greeting.greet("Ada"))")
    return .none
  }
}

@MainActor
@Suite(.hangGuard)
struct DependencyTests {
  @Test func thisProcessIsATestContext() {
    #expect(DependencyContext.current == .test)
    #expect(DependencyValues().context == .test)
  }

  @Test func innerOverridesBeatOuterOnesAndEndWithTheirScope() {
    withDependencies {
      $0.testNumber = 1
    } operation: {
      #expect(DependencyValues.current.testNumber == 1)
      withDependencies {
        $0.testNumber = 2
      } operation: {
        #expect(DependencyValues.current.testNumber == 2)
      }
      #expect(DependencyValues.current.testNumber == 1)
    }
    #expect(DependencyValues.current.testNumber == 0)
  }

  @Test func concurrentTasksEachSeeTheirOwnValues() async {
    await withTaskGroup(of: (Int, Int).self) { group in
      for index in 1...20 {
        group.addTask {
          await withDependencies {
            $0.testNumber = index
          } operation: {
            await Task.yield()
            return (index, DependencyValues.current.testNumber)
          }
        }
      }
      for await (expected, seen) in group { #expect(expected == seen) }
    }
  }

  @Test func aStorePinsTheValuesItWasCreatedWith() async {
    let store = withDependencies {
      $0.greeting.greet = { "Hi \($0)" }
    } operation: {
      Store(initialState: Greeter.State()) { Greeter() }
    }
    store.send(.greet("Ada"))  // outside the override's scope
    await store.send(.greetLater("Bob")).finish()
    #expect(store.greetings == ["Hi Ada", "Hi Bob"])
  }

  @Test func theSendersOverridesNeverReachTheStore() {
    let store = Store(initialState: Greeter.State()) {
      Greeter()
    } withDependencies: {
      $0.greeting.greet = { "Pinned \($0)" }
    }
    withDependencies {
      $0.greeting.greet = { "Caller \($0)" }
    } operation: {
      store.send(.greet("Ada"))
    }
    #expect(store.greetings == ["Pinned Ada"])
  }

  @Test func overridesMadeInsideAReducerTakePrecedenceThenEnd() {
    struct Nested: Reducer {
      @Dependency(\.testNumber) var number
      func reduce(into state: inout [Int], action: Void) -> Effect<Void> {
        state.append(number)
        withDependencies {
          $0.testNumber = 9
        } operation: {
          state.append(DependencyValues.current.testNumber)
          withDependencies {
            $0.testNumber += 1
          } operation: {
            state.append(number)
          }
        }
        state.append(number)
        return .none
      }
    }
    let store = Store(initialState: [Int]()) {
      Nested()
    } withDependencies: {
      $0.testNumber = 3
    }
    store.send(())
    #expect(store.state == [3, 9, 10, 3])
  }

  @Test func storeInitializerOverrides() async {
    let store = Store(initialState: Greeter.State()) {
      Greeter()
    } withDependencies: {
      $0.greeting.greet = { "Yo \($0)" }
    }
    store.send(.greet("Ada"))
    #expect(store.greetings == ["Yo Ada"])
  }

  @Test func effectsSeeTheValuesCurrentWhenTheyWereCreated() async {
    // The override applies only while the child reducer runs; its effect runs later, after
    // the override's scope has ended, and must still see it.
    struct Parent: Reducer {
      struct State: Equatable, Sendable {
        var child = Greeter.State()
        var own: [String] = []
      }
      enum Action: Equatable, Sendable {
        case child(Greeter.Action)
        case greet(String)
      }
      @Dependency(\.greeting) var greeting
      var body: some Reducer<State, Action> {
        Scope(state: \.child, action: Action.child) {
          Greeter().dependency(\.greeting, GreetingClient { "Child says hi to \($0)" })
        }
        Reduce { state, action in
          if case let .greet(name) = action { state.own.append(greeting.greet(name)) }
          return .none
        }
      }
    }
    let store = Store(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.greeting.greet = { "Parent says hi to \($0)" }
    }
    await store.send(.child(.greetLater("Ada"))).finish()
    store.send(.child(.greet("Bob")))
    store.send(.greet("Cy"))
    #expect(store.child.greetings == ["Child says hi to Ada", "Child says hi to Bob"])
    #expect(store.own == ["Parent says hi to Cy"])  // the override stayed in its subtree
  }

  @Test func transformDependencyChangesTheCurrentValue() {
    struct Reader: Reducer {
      @Dependency(\.testNumber) var number
      func reduce(into state: inout [Int], action: Void) -> Effect<Void> {
        state.append(number)
        return .none
      }
    }
    let store = Store(initialState: [Int]()) {
      Reader().transformDependency(\.testNumber) { $0 += 10 }
    } withDependencies: {
      $0.testNumber = 5
    }
    store.send(())
    #expect(store.state == [15])
  }

  /// A `.dependency` override is made once per set of values around it (an action through it
  /// allocates nothing), yet follows those values when a test changes them.
  @Test func aDependencyOverrideFollowsTheValuesAroundItWhenATestChangesThem() async {
    let store = TestStore(initialState: [String]()) {
      OverrideReader().dependency(\.greeting, GreetingClient { "Hi \($0)" })
    } withDependencies: {
      $0.testNumber = 1
    }
    await store.send(.read) { $0 = ["1: Hi Ada"] }
    await store.send(.read) { $0 = ["1: Hi Ada", "1: Hi Ada"] }
    store.dependencies.testNumber = 2
    await store.send(.read) { $0 = ["1: Hi Ada", "1: Hi Ada", "2: Hi Ada"] }
  }

  @Test func aTransformRunsForEveryAction() {
    let calls = Box(0)
    let store = Store(initialState: [String]()) {
      OverrideReader().transformDependency(\.testNumber) { number in
        calls.update { $0 += 1 }
        number += calls.value
      }
    } withDependencies: {
      $0.greeting = GreetingClient { "Hello \($0)" }
    }
    let built = calls.value
    store.send(.read)
    store.send(.read)
    #expect(calls.value == built + 2)
    #expect(store.state == ["\(built + 1): Hello Ada", "\(built + 2): Hello Ada"])
  }

  @Test func aDependencyWithoutATestValueFailsTheTestThatUsesIt() async {
    let (value, warnings) = await RuntimeWarnings.capturing {
      DependencyValues().withFreshCache()[LiveOnlyClient.self].name
    }
    #expect(value == "preview")  // it falls back to the preview value, not the live one
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.contains("'LiveOnlyClient' was used in a test") == true)
    #expect(warnings.first?.message.contains("withDependencies") == true)
  }

  @Test func unimplementedTestEndpointsReportWhenCalled() async {
    let store = Store(initialState: Greeter.State()) { Greeter() }
    let (_, warnings) = await RuntimeWarnings.capturing { store.send(.greet("Ada")) }
    #expect(warnings.map(\.message).contains { $0.contains("'GreetingClient.greet'") })
  }

  @Test func liveValuesAreComputedOncePerProcess() {
    var live = DependencyValues()
    live.context = .live
    let before = computations.withLock { $0["live", default: 0] }
    #expect(live[CountedKey.self] == 1)
    #expect(live.withFreshCache()[CountedKey.self] == 1)
    #expect(DependencyValues().withFreshCache().withContext(.live)[CountedKey.self] == 1)
    let after = computations.withLock { $0["live", default: 0] }
    #expect(after - before <= 1)
    #expect(after == 1)
  }

  @Test func testValuesAreCachedPerStoreAndNeverLeakAcrossStores() {
    struct Reader: Reducer {
      @Dependency(CountedKey.self) var counted
      func reduce(into state: inout Int, action: Void) -> Effect<Void> {
        state += counted
        return .none
      }
    }
    let before = computations.withLock { $0["test", default: 0] }
    let first = Store(initialState: 0) { Reader() }
    first.send(())
    first.send(())
    let second = Store(initialState: 0) { Reader() }
    second.send(())
    let after = computations.withLock { $0["test", default: 0] }
    #expect(first.state == 4)
    #expect(after - before == 2)  // once for each store, not once per read
  }

  @Test func dependencyByKeyType() {
    struct Reader: Reducer {
      @Dependency(GreetingClient.self) var client
      func reduce(into state: inout String, action: String) -> Effect<String> {
        state = client.greet(action)
        return .none
      }
    }
    let store = Store(initialState: "") {
      Reader()
    } withDependencies: {
      $0[GreetingClient.self] = GreetingClient { "Hey \($0)" }
    }
    store.send("Ada")
    #expect(store.state == "Hey Ada")
  }

  @Test func escapedDependenciesReachCallbacks() async {
    let seen = Guarded<Int?>(nil)
    let latch = Latch()
    withDependencies {
      $0.testNumber = 42
    } operation: {
      withEscapedDependencies { dependencies in
        Thread.detachNewThread {
          dependencies.yield { seen.withLock { $0 = DependencyValues.current.testNumber } }
          latch.signal()
        }
      }
    }
    await latch.wait(for: 1)
    #expect(seen.withLock { $0 } == 42)
  }

  @Test func builtInValues() async {
    var values = DependencyValues()
    values.date = .constant(Date(timeIntervalSince1970: 1_000))
    values.uuid = .incrementing
    values.withRandomNumberGenerator = WithRandomNumberGenerator(SeededGenerator(seed: 7))
    #expect(values.date.now == Date(timeIntervalSince1970: 1_000))
    #expect(values.uuid() == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
    #expect(values.uuid() == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
    let rolls = (0..<5).map { _ in
      values.withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
    }
    var again = SeededGenerator(seed: 7)
    #expect(rolls == (0..<5).map { _ in Int.random(in: 1...6, using: &again) })
    #expect(values.calendar.timeZone == TimeZone(identifier: "UTC"))
    #expect(values.locale.identifier == "en_US_POSIX")
    #expect(values.timeZone == TimeZone(identifier: "UTC"))
    #expect(values.timeZone.secondsFromGMT() == 0)
    #expect(UUID(incrementing: 255).uuidString == "00000000-0000-0000-0000-0000000000FF")
  }

  @Test func unoverriddenClockDateAndUUIDReportInTests() async {
    let values = DependencyValues().withFreshCache()
    let (_, warnings) = await RuntimeWarnings.capturing {
      _ = values.continuousClock.now
      _ = values.date.now
      _ = values.uuid()
    }
    #expect(warnings.count == 3)
    #expect(warnings[0].message.contains("'continuousClock'"))
    #expect(warnings[1].message.contains("DependencyValues.date"))
    #expect(warnings[2].message.contains("DependencyValues.uuid"))
  }

  @Test func dismissingWhereNothingIsPresentedIsAWarningNotACrash() async {
    let (_, warnings) = await RuntimeWarnings.capturing {
      await DependencyValues.current.dismiss()
    }
    #expect(DependencyValues.current.isPresented == false)
    #expect(warnings.count == 1)
    #expect(warnings.first?.fileID == "CascadeTests/DependencyTests.swift")
    #expect(warnings.first?.message.contains("nothing to dismiss") == true)
  }
}

extension DependencyValues {
  fileprivate func withContext(_ context: DependencyContext) -> DependencyValues {
    var values = self
    values.context = context
    return values
  }
}
