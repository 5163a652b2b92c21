import Foundation

/// Records the actions a reducer handles, optionally with the state after each, so a session
/// can be inspected, saved and replayed.
///
/// Record every action, including those effects sent back: their results (network responses,
/// clock ticks) are in those actions, so replaying them through the reducer alone reproduces
/// the session's final state exactly, with no effect running.
///
/// ```swift
/// let recorder = Recorder<App.State, App.Action>()
/// let store = Store(initialState: App.State()) { App().record(into: recorder) }
/// // ... the session runs ...
/// let replayed = recorder.recording.replay(from: App.State()) { App() }
/// assert(replayed == store.state)
/// ```
///
/// A recorder is `Sendable` when its state and action types are: the compiler checks it (its
/// only mutable storage is behind a lock), so a recorder of a non-`Sendable` state cannot be
/// handed to another task by mistake.
public final class Recorder<State, Action> {
  private let lock = Guarded<[Recording<State, Action>.Entry]>([])
  private let keepsStates: Bool

  /// A recorder; with `keepingStates`, each entry also keeps the state after its action.
  public init(keepingStates: Bool = false) { self.keepsStates = keepingStates }

  /// What was recorded so far.
  public var recording: Recording<State, Action> { Recording(entries: lock.withLock { $0 }) }

  func append(_ action: Action, state: State) {
    let entry = Recording<State, Action>.Entry(action: action, state: keepsStates ? state : nil)
    lock.withLock { $0.append(entry) }
  }
}

extension Recorder: Sendable where State: Sendable, Action: Sendable {}

/// Recorded actions, in order, with the state after each when the recorder kept them.
public struct Recording<State, Action> {
  /// One reduced action.
  public struct Entry {
    /// The action that was reduced.
    public let action: Action
    /// The state after the action, or `nil` when the recorder did not keep states (or the
    /// recording was decoded).
    public let state: State?
  }

  /// The entries, in order.
  public var entries: [Entry]

  /// The actions, in order.
  public var actions: [Action] { entries.map(\.action) }

  /// Replays the actions from `initialState` through the reducer, without running effects:
  /// the state the session ended in. Reducers that read dependencies directly (a date, an id
  /// generator) need the same values: set them with `withDependencies`.
  public func replay<R: Reducer>(
    from initialState: State,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    @ReducerBuilder<State, Action> reducer: () -> R
  ) -> State where R.State == State, R.Action == Action {
    var values = DependencyValues._current
    prepare(&values)
    return DependencyValues._withValue(values) {
      let reduce = reducer()._reduceFunction()
      var state = initialState
      for entry in entries { _ = reduce(&state, entry.action) }
      return state
    }
  }
}

extension Recording: Sendable where State: Sendable, Action: Sendable {}
extension Recording.Entry: Sendable where State: Sendable, Action: Sendable {}

extension Recording: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey { case actions }

  /// Encodes the actions (states are not saved).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(actions, forKey: .actions)
  }

  /// Decodes the actions; the entries have no states.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let actions = try container.decode([Action].self, forKey: .actions)
    self.entries = actions.map { Entry(action: $0, state: nil) }
  }
}

extension Reducer {
  /// Records every action this reducer handles into `recorder`.
  ///
  /// ```swift
  /// Store(initialState: App.State()) { App().record(into: recorder) }
  /// ```
  public func record(into recorder: Recorder<State, Action>) -> _InterceptReducer<Self> {
    intercept(after: { state, action, _ in recorder.append(action, state: state) })
  }
}
