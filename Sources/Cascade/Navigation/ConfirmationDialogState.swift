/// A confirmation dialog (an action sheet) as a plain value: like ``AlertState``, with a choice
/// of showing its title. Present it with `@PresentationState` and `.ifLet(\.$dialog, action:)`;
/// it is dismissed as soon as one of its buttons is sent.
///
/// ```swift
/// state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
///   "Report this answer?"
/// } actions: {
///   ButtonState(role: .destructive, action: .report) { "Report" }
///   ButtonState(role: .cancel) { "Cancel" }
/// }
/// ```
public struct ConfirmationDialogState<Action>: _EphemeralState {
  /// Whether the title is shown.
  public enum Visibility: String, Hashable, Sendable {
    /// `automatic` leaves it to the platform; `visible` always shows it; `hidden` never does.
    case automatic, visible, hidden
  }

  /// Whether the title is shown.
  public var titleVisibility: Visibility
  /// The title.
  public var title: TextState
  /// The message, if any.
  public var message: TextState?
  /// The buttons.
  public var buttons: [ButtonState<Action>]

  /// A dialog.
  public init(
    titleVisibility: Visibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomStringConvertible {
  /// `Dialog "Report this answer?" [Report (destructive)] [Cancel (cancel)]`.
  public var description: String {
    var text = "Dialog \"\(title)\""
    if let message { text += ": \(message)" }
    return text + " " + buttons.map(\.description).joined(separator: " ")
  }
}
