/// A button of an alert or a dialog, as a plain value: its label, its role, and the action it
/// sends (none for a button that only dismisses).
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }
/// ButtonState(role: .cancel) { "Cancel" }
/// ```
public struct ButtonState<Action> {
  /// What a button means to the user.
  public typealias Role = ButtonStateRole

  /// The button's role, if any.
  public let role: Role?
  /// The action it sends, or `nil` when it only dismisses.
  public let action: Action?
  /// Its label.
  public let label: TextState

  /// A button.
  public init(role: Role? = nil, action: Action? = nil, label: () -> TextState) {
    self.role = role
    self.action = action
    self.label = label()
  }

  /// The same button, sending a transformed action.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> ButtonState<NewAction> {
    let label = self.label
    return ButtonState<NewAction>(role: role, action: action.map(transform), label: { label })
  }
}

/// What a button means to the user (one type for every `ButtonState`, so mapping a button's
/// action keeps its role).
public enum ButtonStateRole: String, Hashable, Sendable {
  /// Closes without doing anything.
  case cancel
  /// Does something that cannot be undone.
  case destructive
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: CustomStringConvertible {
  /// `[Delete (destructive)]`.
  public var description: String {
    "[\(label)\(role.map { " (\($0.rawValue))" } ?? "")]"
  }
}

/// Builds the buttons of an alert or dialog from a list, with `if` and `for` as in a view.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  /// The buttons of every line, in order.
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
  /// A button on a line of its own.
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }
  /// An `if` without `else`: its buttons when the condition holds, none otherwise.
  public static func buildOptional(_ buttons: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    buttons ?? []
  }
  /// The first branch of an `if`/`else` or a `switch`.
  public static func buildEither(first: [ButtonState<Action>]) -> [ButtonState<Action>] { first }
  /// The second branch of an `if`/`else` or a `switch`.
  public static func buildEither(second: [ButtonState<Action>]) -> [ButtonState<Action>] { second }
  /// A `for` loop: the buttons of every iteration, in order.
  public static func buildArray(_ buttons: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    buttons.flatMap { $0 }
  }
}
