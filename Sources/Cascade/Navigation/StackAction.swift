/// What happens on a navigation stack: an action for one screen, popping from a screen, or
/// pushing a new one.
///
/// A parent gives its stack one action case carrying this type:
///
/// ```swift
/// enum Action {
///   case path(StackActionOf<Path>)
/// }
/// ```
public enum StackAction<State, Action> {
  /// `action` for the screen with `id`.
  case element(id: StackElementID, action: Action)
  /// Pops the screen with `id` and every screen above it. The parent sees the action before
  /// the screens go.
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`. The screen is on the stack when the parent sees the action.
  case push(id: StackElementID, state: State)
}

/// A feature's stack action: `StackActionOf<Path>` is `StackAction<Path.State, Path.Action>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
