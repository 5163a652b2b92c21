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
@Suite(.hangGuard)
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
    // Keys typed one by one, as in the tests below: inferred in the calls, this function took
    // the type checker 350 ms on an idle machine.
    let defaults = TemporaryDefaults()
    let bool: AppStorageKey<Bool> = .appStorage("bool")
    let int: AppStorageKey<Int> = .appStorage("int")
    let double: AppStorageKey<Double> = .appStorage("double")
    let string: AppStorageKey<String> = .appStorage("string")
    let data: AppStorageKey<Data> = .appStorage("data")
    let url: AppStorageKey<URL> = .appStorage("url")
    let grade: AppStorageKey<Grade> = .appStorage("grade")
    let level: AppStorageKey<Level> = .appStorage("level")
    #expect(roundTrip(bool, initial: false, written: true, in: defaults))
    #expect(roundTrip(int, initial: 0, written: 42, in: defaults) == 42)
    #expect(roundTrip(double, initial: 0.0, written: 2.5, in: defaults) == 2.5)
    #expect(roundTrip(string, initial: "", written: "서울", in: defaults) == "서울")
    let bytes = Data([1, 2, 3])
    #expect(roundTrip(data, initial: Data(), written: bytes, in: defaults) == bytes)
    let school = URL(string: "https://example.com/school?id=7")!
    let blank = URL(string: "about:blank")!
    #expect(roundTrip(url, initial: blank, written: school, in: defaults) == school)
    #expect(roundTrip(grade, initial: Grade.elementary, written: .high, in: defaults) == .high)
    #expect(roundTrip(level, initial: Level.one, written: .three, in: defaults) == .three)
  }

  @Test func optionalsStoreAValueAndRemoveItWithNil() {
    // Keys typed one by one: inferring `.appStorage(...)` and `nil` together took the type
    // checker over 600 ms on a loaded machine.
    let defaults = TemporaryDefaults()
    let bool: AppStorageKey<Bool?> = .appStorage("o-bool")
    let int: AppStorageKey<Int?> = .appStorage("o-int")
    let double: AppStorageKey<Double?> = .appStorage("o-double")
    let string: AppStorageKey<String?> = .appStorage("o-string")
    #expect(roundTrip(bool, initial: nil, written: true, in: defaults) == true)
    #expect(roundTrip(int, initial: nil, written: 7, in: defaults) == 7)
    #expect(roundTrip(double, initial: nil, written: 1.5, in: defaults) == 1.5)
    #expect(roundTrip(string, initial: nil, written: "a", in: defaults) == "a")
  }

  @Test func optionalDataURLsAndRawValuesRoundTrip() {
    let defaults = TemporaryDefaults()
    let data: AppStorageKey<Data?> = .appStorage("o-data")
    let url: AppStorageKey<URL?> = .appStorage("o-url")
    let grade: AppStorageKey<Grade?> = .appStorage("o-grade")
    let level: AppStorageKey<Level?> = .appStorage("o-level")
    #expect(roundTrip(data, initial: nil, written: Data([9]), in: defaults) == Data([9]))
    let file = URL(string: "file:///tmp/x")!
    #expect(roundTrip(url, initial: nil, written: file, in: defaults) == file)
    #expect(roundTrip(grade, initial: nil, written: Grade.middle, in: defaults) == .middle)
    #expect(roundTrip(level, initial: nil, written: Level.two, in: defaults) == .two)
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
}
