import CascadeTestSupport
import CascadeTesting
import Testing

@testable import Cascade

/// The one walk over an effect's operations (`Effect._mapped(by:)`), through its two users:
/// `map`, which embeds every action, and a presented child's effects, whose `.run` also
/// carries the child's way to dismiss itself.
@MainActor
@Suite(.hangGuard)
struct EffectMapTests {
  private enum CancelID: Hashable, Sendable { case load }

  /// The effect's shape, written out: each case, its actions and the actions its `.run`s send.
  private func shape(_ effect: Effect<Int>) async -> String {
    switch effect.operation {
    case .none: return "none"
    case let .send(action): return "send(\(action))"
    case let .run(run):
      let sent = Box<[Int]>([])
      try? await run.operation(Send { action in sent.update { $0.append(action) } })
      return "run\(sent.value)"
    case let .merge(effects):
      var parts: [String] = []
      for effect in effects { parts.append(await shape(effect)) }
      return "merge(\(parts.joined(separator: ", ")))"
    case let .concatenate(effects):
      var parts: [String] = []
      for effect in effects { parts.append(await shape(effect)) }
      return "concatenate(\(parts.joined(separator: ", ")))"
    case let .cancellable(id, cancelInFlight, effect):
      return "cancellable(\(id.base), \(cancelInFlight), \(await shape(effect)))"
    case let .cancel(id): return "cancel(\(id.map { "\($0.base)" } ?? "all"))"
    case let .navigation(id, effect): return "navigation(\(id.base), \(await shape(effect)))"
    case let .throttle(throttle, effect):
      return "throttle(\(throttle.id.base), \(await shape(effect)))"
    case .prune: return "prune"
    }
  }

  @Test func mapEmbedsEveryActionAndKeepsTheShape() async {
    let clock = TestClock()
    let effect = Effect<Int>.merge(
      .send(1),
      .concatenate(.run { send in await send(2) }, .send(3)),
      Effect.run { send in await send(4) }.cancellable(id: CancelID.load, cancelInFlight: true),
      .cancel(id: CancelID.load),
      Effect.send(5).throttle(id: CancelID.load, for: .seconds(1), clock: clock, latest: true),
      Effect.send(6)._navigation(_AnyID("row")),
      .none
    )
    #expect(
      await shape(effect.map { $0 * 10 })
        == """
        merge(send(10), concatenate(run[20], send(30)), cancellable(load, true, run[40]), \
        cancel(load), throttle(load, send(50)), navigation(row, send(60)))
        """)
    #expect(await shape(Effect<Int>.none.map { $0 * 10 }) == "none")
  }

  @Test func aPresentedChildDismissesItselfFromItsRunsErrorHandler() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.present) { $0.child = Failing.State() }
    await store.send(.child(.presented(.load)))
    await store.receive(.child(.dismiss)) { $0.child = nil }
    await store.finish()
  }

  @Test func aPresentedChildDismissesItselfFromItsRunsErrorHandlerInALiveStore() async {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.present)
    #expect(store.state.child != nil)
    let task = store.send(.child(.presented(.load)))
    await withDeadline("the child's effect and its dismissal") { await task.finish() }
    #expect(store.state.child == nil, "the error handler's dismiss reached the parent")
  }
}

private struct LoadFailed: Error {}

/// A child whose load fails and whose error handler dismisses it.
private struct Failing: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case load }
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in
      throw LoadFailed()
    } catch: { _, _ in
      await dismiss()
    }
  }
}

private struct Host: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: Failing.State?
  }
  enum Action: Equatable, Sendable {
    case present
    case child(PresentationAction<Failing.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .present = action { state.child = Failing.State() }
      return .none
    }
    .ifLet(\.$child, action: Action.child) { Failing() }
  }
}
