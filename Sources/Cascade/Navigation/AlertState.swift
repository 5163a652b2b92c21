/// An alert as a plain value: title, message and buttons. Present it with
/// `@PresentationState var alert: AlertState<Action.Alert>?` and `.ifLet(\.$alert, action:)`;
/// it is dismissed as soon as one of its buttons is sent.
///
/// ```swift
/// state.alert = AlertState {
///   "Update required"
/// } actions: {
///   ButtonState(action: .updateTapped) { "Update" }
/// } message: {
///   "Version 2.1.0 is available in the App Store."
/// }
/// ```
///
/// It prints as text (`print(alert)`), for headless programs and test failures.
public struct AlertState<Action>: _EphemeralState {
  /// The title.
  public var title: TextState
  /// The message, if any.
  public var message: TextState?
  /// The buttons; an alert with none shows a single OK that dismisses it.
  public var buttons: [ButtonState<Action>]

  /// An alert.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// The same alert, with its buttons' actions transformed.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> AlertState<NewAction> {
    let buttons = self.buttons.map { $0.map(transform) }
    var alert = AlertState<NewAction>(title: { title })
    alert.buttons = buttons
    alert.message = message
    return alert
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomStringConvertible {
  /// `Alert "Update required": Version 2.1.0 is available. [Update] [Later (cancel)]`.
  public var description: String {
    var text = "Alert \"\(title)\""
    if let message { text += ": \(message)" }
    let buttons = buttons.isEmpty ? "[OK]" : buttons.map(\.description).joined(separator: " ")
    return text + " " + buttons
  }
}
