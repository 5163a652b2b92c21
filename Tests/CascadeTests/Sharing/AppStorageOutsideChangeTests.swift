import CascadeTesting
import Foundation
import Testing

@testable import Cascade

private enum Tier: String, Sendable { case bronze, silver, gold }
private enum Rank: Int, Sendable {
  case low = 1
  case mid, top
}

/// A user default changed outside the app (another process, a settings screen) is loaded into
/// the `Shared` value of its ``AppStorageKey`` once the storage looks for outside changes, for
/// every supported type; a removed default gives back the value's own default. (The behaviours
/// of swift-sharing's `AppStorageTests` that apply, in Cascade's terms.)
@MainActor
@Suite(.hangGuard)
struct AppStorageOutsideChangeTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  /// Makes a `Shared` for `key`, sets the default outside it to `outside`, and returns what the
  /// `Shared` holds once the storage has looked for outside changes.
  private func seenAfterAnOutsideChange<Value: Sendable>(
    _ key: AppStorageKey<Value>, initial: Value, outside: Any, in scratch: TemporaryDefaults
  ) -> Value {
    let storage = scratch.storage()
    return withDependencies {
      $0.sharedStorage = storage
    } operation: {
      let shared = Shared(wrappedValue: initial, key)
      scratch.defaults.set(outside, forKey: key.key)
      storage.checkForExternalChanges()
      return shared.wrappedValue
    }
  }

  @Test func aDefaultOfEveryScalarTypeChangedOutsideIsLoaded() {
    let scratch = TemporaryDefaults()
    #expect(
      seenAfterAnOutsideChange(.appStorage("bool"), initial: true, outside: false, in: scratch)
        == false)
    #expect(
      seenAfterAnOutsideChange(.appStorage("int"), initial: 42, outside: 1729, in: scratch)
        == 1729)
    #expect(
      seenAfterAnOutsideChange(.appStorage("double"), initial: 1.2, outside: 3.4, in: scratch)
        == 3.4)
    #expect(
      seenAfterAnOutsideChange(.appStorage("string"), initial: "Ana", outside: "Bo", in: scratch)
        == "Bo")
  }

  // Split from the test above: eight `.appStorage` overloads in one body take over CI's
  // 500 ms type-checking limit.
  @Test func aDefaultOfEveryOtherSupportedTypeChangedOutsideIsLoaded() {
    let scratch = TemporaryDefaults()
    #expect(
      seenAfterAnOutsideChange(
        .appStorage("data"), initial: Data([4, 2]), outside: Data([1, 7]), in: scratch)
        == Data([1, 7]))
    #expect(
      seenAfterAnOutsideChange(
        .appStorage("url"), initial: URL(filePath: "/dev"), outside: "file:///tmp",
        in: scratch) == URL(string: "file:///tmp"))
    #expect(
      seenAfterAnOutsideChange(
        .appStorage("tier"), initial: Tier.bronze, outside: "gold", in: scratch) == .gold)
    #expect(
      seenAfterAnOutsideChange(.appStorage("rank"), initial: Rank.low, outside: 3, in: scratch)
        == .top)
  }

  @Test func anOptionalSeesAnOutsideValueAndNilRemovesTheDefault() {
    let scratch = TemporaryDefaults()
    let storage = scratch.storage()
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.appStorage("flag")) var flag: Bool?
      #expect(flag == nil)
      #expect(scratch.defaults.object(forKey: "flag") == nil)
      scratch.defaults.set(false, forKey: "flag")
      storage.checkForExternalChanges()
      #expect(flag == false)
      $flag.withLock { $0 = nil }
      #expect(scratch.defaults.object(forKey: "flag") == nil)
    }
  }

  @Test func anOptionalWithADefaultGoesBackToItWhenTheStoredValueIsRemoved() {
    let scratch = TemporaryDefaults()
    let storage = scratch.storage()
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.appStorage("flag")) var flag: Bool? = true
      scratch.defaults.set(false, forKey: "flag")
      storage.checkForExternalChanges()
      #expect(flag == false)
      scratch.defaults.removeObject(forKey: "flag")
      storage.checkForExternalChanges()
      #expect(flag == true)
      $flag.withLock { $0 = nil }
      #expect(flag == nil)
      #expect(scratch.defaults.object(forKey: "flag") == nil)
    }
  }

  @Test func aValueWhoseDefaultIsRemovedOutsideGoesBackToItsDefault() {
    let scratch = TemporaryDefaults()
    let storage = scratch.storage()
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.appStorage("count")) var count = 3
      $count.withLock { $0 = 8 }
      scratch.defaults.removeObject(forKey: "count")
      storage.checkForExternalChanges()
      #expect(count == 3)
    }
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
