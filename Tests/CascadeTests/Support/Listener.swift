@testable import Cascade

/// An effect that runs until cancelled, reporting its start and its end through latches.
struct LongEffect: Sendable {
  let started = Latch()
  let ended = Latch()

  func run<Action>() -> Effect<Action> {
    .run { [started, ended] _ in
      started.signal()
      defer { ended.signal() }
      let (stream, _) = AsyncStream<Never>.makeStream()
      for await _ in stream {}  // ends only when the task is cancelled
    }
  }
}

/// A feature whose effects live until cancelled, by id.
struct Listener: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable {
    case listen(String, cancelInFlight: Bool)
    case listenForever
    case stop(String)
  }
  let effect: LongEffect

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .listen(id, cancelInFlight):
      return effect.run().cancellable(id: id, cancelInFlight: cancelInFlight)
    case .listenForever:
      return effect.run()
    case let .stop(id):
      return .cancel(id: id)
    }
  }
}
