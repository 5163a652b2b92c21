import CascadeTesting
import Testing

@testable import Cascade

/// The real `Store` and the `TestStore` agree: for each effect shape, the same feature run in
/// both reduces the same actions in the same order and ends in the same state.
@MainActor
@Suite(.hangGuard)
struct EffectParityTests {
  @Test func run() async {
    await expectStoreAndTestStoreAgree([.send(.load), .receive(.step("loaded"))])
  }

  @Test func mergeDeliversTheSynchronousPartInTheBatchThenTheRun() async {
    await expectStoreAndTestStoreAgree([
      .send(.mergeNowAndLater), .receive(.step("now")), .receive(.step("later")),
    ])
  }

  @Test func concatenationRunsItsLastPartAfterStartingALongLivedEffect() async {
    await expectStoreAndTestStoreAgree([
      .send(.concatenateAroundSubscription),
      .receive(.step("first")),
      .receive(.subscribe),
      .receive(.step("last")),
      .send(.unsubscribe),
    ])
  }

  @Test func nestedConcatenationAndMerge() async {
    await expectStoreAndTestStoreAgree([
      .send(.nestedConcatenation),
      .advance(.seconds(1)),
      .receive(.step("a")),
      .receive(.step("c")),
      .receive(.step("b")),
      .receive(.step("d")),
    ])
  }

  @Test func debouncedSendKeepsTheEffectOfTheActionItDelivered() async {
    await expectStoreAndTestStoreAgree([
      .send(.edit("a")),
      .advance(.seconds(1)),
      .receive(.save("a")),
      .send(.edit("ab")),  // the save of "a" is running: it goes on
      .advance(.seconds(1)),
      .receive(.save("ab")),
      .advance(.seconds(4)),
      .receive(.saved("a")),
      .advance(.seconds(1)),
      .receive(.saved("ab")),
    ])
  }

  @Test func debounceDeliversOnlyTheLastOfQuickEdits() async {
    await expectStoreAndTestStoreAgree([
      .send(.edit("a")),
      .advance(.milliseconds(500)),
      .send(.edit("ab")),
      .advance(.seconds(1)),
      .receive(.save("ab")),
      .advance(.seconds(5)),
      .receive(.saved("ab")),
    ])
  }

  @Test func throttleLatestAcrossEffects() async {
    await expectStoreAndTestStoreAgree([
      .send(.tick(1, latest: true)),
      .receive(.step("tick 1")),
      .send(.tick(2, latest: true)),
      .send(.tick(3, latest: true)),
      .advance(.milliseconds(100)),
      .receive(.step("tick 3")),
    ])
  }

  @Test func throttleFirstAcrossEffects() async {
    await expectStoreAndTestStoreAgree([
      .send(.tick(1, latest: false)),
      .receive(.step("tick 1")),
      .send(.tick(2, latest: false)),
      .send(.tick(3, latest: false)),
      .advance(.milliseconds(100)),
      .receive(.step("tick 2")),
    ])
  }

  @Test func throttleLimitsTheActionsOfOneEffect() async {
    await expectStoreAndTestStoreAgree([
      .send(.burst(latest: true)),
      .receive(.step("burst 1")),
      .advance(.milliseconds(100)),
      .receive(.step("burst 3")),
    ])
    await expectStoreAndTestStoreAgree([
      .send(.burst(latest: false)),
      .receive(.step("burst 1")),
      .advance(.milliseconds(100)),
      .receive(.step("burst 2")),
    ])
  }
}
