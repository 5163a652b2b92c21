import CascadeTesting
import Foundation
import Testing

@testable import Cascade

private enum Grade: String, Sendable { case elementary, middle, high }
private enum Level: Int, Sendable {
  case one = 1
  case two, three
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct SharedAppStorageTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  /// Writes `value` through one storage and reads it through a fresh one over the same
  /// defaults, like a relaunched app.
  private func roundTrip<Value: Sendable & Equatable>(
    _ key: @autoclosure () -> AppStorageKey<Value>, initial: Value, written: Value,
    in defaults: TemporaryDefaults
  ) -> Value {
    withDependencies {
      $0.sharedStorage = defaults.storage()
    } operation: {
      let shared = Shared(wrappedValue: initial, key())
      shared.withLock { $0 = written }
    }
    return withDependencies {
      $0.sharedStorage = defaults.storage()
    } operation: {
      Shared(wrappedValue: initial, key()).wrappedValue
    }
  }

  @Test func everySupportedTypeRoundTrips() {
    let defaults = TemporaryDefaults()
    #expect(roundTrip(.appStorage("bool"), initial: false, written: true, in: defaults))
    #expect(roundTrip(.appStorage("int"), initial: 0, written: 42, in: defaults) == 42)
    #expect(roundTrip(.appStorage("double"), initial: 0.0, written: 2.5, in: defaults) == 2.5)
    #expect(roundTrip(.appStorage("string"), initial: "", written: "서울", in: defaults) == "서울")
    #expect(
      roundTrip(.appStorage("data"), initial: Data(), written: Data([1, 2, 3]), in: defaults)
        == Data([1, 2, 3]))
    let url = URL(string: "https://example.com/school?id=7")!
    #expect(
      roundTrip(
        .appStorage("url"), initial: URL(string: "about:blank")!, written: url, in: defaults)
        == url)
    #expect(
      roundTrip(.appStorage("grade"), initial: Grade.elementary, written: .high, in: defaults)
        == .high)
    #expect(
      roundTrip(.appStorage("level"), initial: Level.one, written: .three, in: defaults) == .three)
  }

  @Test func optionalsStoreAValueAndRemoveItWithNil() {
    let defaults = TemporaryDefaults()
    #expect(roundTrip(.appStorage("o-bool"), initial: nil, written: true, in: defaults) == true)
    #expect(roundTrip(.appStorage("o-int"), initial: nil, written: 7, in: defaults) == 7)
    #expect(roundTrip(.appStorage("o-double"), initial: nil, written: 1.5, in: defaults) == 1.5)
    #expect(roundTrip(.appStorage("o-string"), initial: nil, written: "a", in: defaults) == "a")
  }

  @Test func optionalDataURLsAndRawValuesRoundTrip() {
    let defaults = TemporaryDefaults()
    #expect(
      roundTrip(.appStorage("o-data"), initial: nil, written: Data([9]), in: defaults)
        == Data([9]))
    let url = URL(string: "file:///tmp/x")!
    #expect(roundTrip(.appStorage("o-url"), initial: nil, written: url, in: defaults) == url)
    #expect(
      roundTrip(.appStorage("o-grade"), initial: nil, written: Grade.middle, in: defaults)
        == .middle)
    #expect(
      roundTrip(.appStorage("o-level"), initial: nil, written: Level.two, in: defaults) == .two)
  }

  @Test func nilRemovesTheDefault() {
    let defaults = TemporaryDefaults()
    let key: AppStorageKey<Int?> = .appStorage("o-int")
    #expect(roundTrip(key, initial: nil, written: 7, in: defaults) == 7)
    #expect(roundTrip(key, initial: nil, written: nil, in: defaults) == nil)
    #expect(defaults.defaults.object(forKey: "o-int") == nil)
    let lastSchool = withDependencies {
      $0.sharedStorage = defaults.storage()
    } operation: {
      @Shared(.appStorage("never-set")) var lastSchool: String?
      return lastSchool
    }
    #expect(lastSchool == nil)
  }

  @Test func aDefaultOfAnotherTypeGivesTheDefaultAndAnError() {
    let defaults = TemporaryDefaults()
    defaults.defaults.set("not a number", forKey: "count")
    defaults.defaults.set("graduate", forKey: "grade")
    withDependencies {
      $0.sharedStorage = defaults.storage()
    } operation: {
      @Shared(.appStorage("count")) var count = 3
      #expect(count == 3)
      #expect("\($count.loadError!)".contains("holds a String, not a Int"))
      @Shared(.appStorage("grade")) var grade = Grade.high
      #expect(grade == .high)
      #expect($grade.loadError != nil)
    }
    // Nothing was overwritten by loading.
    #expect(defaults.defaults.string(forKey: "count") == "not a number")
  }

  @Test func aDefaultChangedOutsideIsLoadedAgain() {
    let defaults = TemporaryDefaults()
    let storage = defaults.storage()
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.appStorage("volume")) var volume = 0.5
      defaults.defaults.set(0.8, forKey: "volume")
      storage.checkForExternalChanges()
      #expect(volume == 0.8)
    }
  }
}
