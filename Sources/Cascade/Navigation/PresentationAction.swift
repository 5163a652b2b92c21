/// An action for a presented child: one of its own actions, or its dismissal.
///
/// ```swift
/// enum Action {
///   case detail(PresentationAction<Detail.Action>)
/// }
/// store.send(.detail(.presented(.saveTapped)))
/// store.send(.detail(.dismiss))
/// ```
///
/// The child's action is boxed (`indirect`), so a feature can present itself with no
/// `indirect` of its own: `enum Action { case destination(PresentationAction<Action>) }`.
public enum PresentationAction<Action> {
  /// An action of the presented child.
  indirect case presented(Action)
  /// Dismisses the child. The parent sees the action while the child is still presented.
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}

extension PresentationAction {
  /// What tapping `button` of a presented alert or dialog sends: its action, or `.dismiss` for
  /// a button without one.
  ///
  /// ```swift
  /// if let button = store.alert?.buttons.first {
  ///   store.send(.alert(.tapped(button)))
  /// }
  /// ```
  public static func tapped(_ button: ButtonState<Action>) -> Self {
    button.action.map(Self.presented) ?? .dismiss
  }
}
