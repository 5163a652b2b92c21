import CascadeTesting
import Testing

@testable import Cascade

/// How effects combine: `.none` disappears from merges and concatenations, and the parts keep
/// their own order and concurrency.
@MainActor
@Suite(.hangGuard)
struct EffectOperationTests {
  @Test func mergeDropsNone() {
    #expect(Effect<Int>.none.merge(with: .none).isNone)
    #expect(Effect<Int>.merge(.none, .none).isNone)
    guard case .send(1) = Effect<Int>.merge(.none, .send(1)).operation else {
      Issue.record("a merge of one effect should be that effect")
      return
    }
    for effect in [
      Effect<Int>.run { send in await send(42) }.merge(with: .none),
      Effect<Int>.none.merge(with: .run { send in await send(42) }),
      Effect<Int>.merge(.none, .run { send in await send(42) }, .none),
    ] {
      guard case .run = effect.operation else {
        Issue.record("expected the run alone, got \(effect.operation)")
        continue
      }
    }
  }

  @Test func concatenateDropsNone() {
    #expect(Effect<Int>.concatenate(.none, .none).isNone)
    #expect(Effect<Int>.concatenate(.none).isNone)
    for effect in [
      Effect<Int>.concatenate(.run { send in await send(42) }, .none),
      Effect<Int>.concatenate(.none, .run { send in await send(42) }),
    ] {
      guard case .run = effect.operation else {
        Issue.record("expected the run alone, got \(effect.operation)")
        continue
      }
    }
  }

  @Test func mergedRunsBothDeliver() async {
    let store = Store(initialState: Pair.State()) { Pair() }
    await store.send(.merge).finish()
    #expect(store.delivered.sorted() == [42, 1729])
  }

  @Test func concatenatedRunsDeliverInOrder() async {
    let store = Store(initialState: Pair.State()) { Pair() }
    await store.send(.concatenate).finish()
    #expect(store.delivered == [42, 1729])
  }

  // A real `Store` and the `TestStore` reduce the same actions in the same order for each
  // way of combining effects (`expectStoreAndTestStoreAgree`).
  @Test func aRunEffectAgreesInAStoreAndATestStore() async {
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
}

private struct Pair: Reducer {
  struct State: Equatable, Sendable { var delivered: [Int] = [] }
  enum Action: Equatable, Sendable {
    case merge, concatenate
    case value(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .merge:
      return Effect.run { send in await send(.value(42)) }
        .merge(with: .run { send in await send(.value(1729)) })
    case .concatenate:
      return Effect.run { send in
        await Task.yield()
        await send(.value(42))
      }
      .concatenate(with: .run { send in await send(.value(1729)) })
    case let .value(value):
      state.delivered.append(value)
      return .none
    }
  }
}
