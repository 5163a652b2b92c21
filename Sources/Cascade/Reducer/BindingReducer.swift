/// Writes every ``BindingAction`` its feature receives into the state; other actions pass by.
///
/// Put it first in the feature's body, so that the rest of the body sees the field already
/// changed (and can react to it with `case .binding(\.field)`):
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.title):
///       state.title = state.title.trimmingCharacters(in: .whitespaces)
///       return .none
///     case .binding:
///       return .none
///     }
///   }
/// }
/// ```
///
/// A binding changes state only: it returns no effect. `onChange(of:)` after it sees the
/// change like any other.
public struct BindingReducer<State, Action: BindableAction>: Reducer
where Action.State == State {
  @usableFromInline let toBinding: CasePath<Action, BindingAction<State>>

  /// The reducer for the feature's own bindings.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    self.toBinding = CasePath(
      { Action.binding($0) }, fileID: fileID, line: line)
  }

  /// Writes `action`'s binding into `state`, if it is one; returns no effect.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let binding = toBinding.extract(from: action) else { return .none }
    binding.apply(to: &state)
    return .none
  }

  public func _reduceFunction() -> _ReduceFunction<State, Action> {
    { state, action in reduce(into: &state, action: action) }
  }
}
