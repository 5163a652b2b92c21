import Cascade

/// A counter with an id, for tests that put features in identified collections.
struct IdentifiedCounter: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable, Sendable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}
