/// Every way a child operator can be handed an action it cannot deliver, and the one place the
/// warning for each is written: the five operators (`ifLet`, `ifCaseLet`, `forEach`, the
/// presentation `ifLet` and the stack `forEach`) report through here, so their warnings read
/// alike and a change to one is a change to all.
///
/// Each warning says what was dropped, that the parent reducer still ran, and the usual
/// causes; it is reported at the operator's file and line (in a test, a failure).
@usableFromInline
enum _StaleAction {
  /// `ifLet` with its child state `nil`.
  case optionalChildIsNil
  /// `ifCaseLet` with the state in another case.
  case otherCase(found: String)
  /// `forEach` over an identified collection without that id.
  case missingElement(id: String)
  /// A presentation `ifLet` with nothing presented.
  case nothingPresented
  /// A stack `forEach`: an action for a screen not on the stack.
  case missingScreen(id: StackElementID)
  /// A stack `forEach`: `popFrom` for a screen not on the stack.
  case missingPop(id: StackElementID)
  /// A stack `forEach`: `push` with an id already on the stack.
  case duplicatePush(id: StackElementID)

  /// What happened, the details, and the usual causes.
  func message(for action: String) -> String {
    let (what, details, causes): (String, [String], String) =
      switch self {
      case .optionalChildIsNil:
        (
          "An 'ifLet' received a child action while its child state was nil.", [],
          """
          This usually means:
            - an effect of the child sent it after the child was dismissed (child effects are \
          cancelled on dismissal, so look for one started elsewhere), or
            - a view or test sent it to a child that is not presented.
          Make sure the child state is non-nil before sending it actions.
          """
        )
      case let .otherCase(found):
        (
          "An 'ifCaseLet' received a child action while the state was in another case.",
          ["State case: \(found)"],
          """
          This usually means a view or test sent it after the state changed case. Send child \
          actions only while the state is in the child's case.
          """
        )
      case let .missingElement(id):
        (
          "A 'forEach' received an action for an element that is not in the collection.",
          ["Missing id: \(id)"],
          """
          This usually means an action was sent for a row after it was removed (the removed \
          row's effects were cancelled, so look for a view or test holding on to a stale id).
          """
        )
      case .nothingPresented:
        (
          "A presentation 'ifLet' received an action while nothing was presented.", [],
          """
          This usually means an action was sent to a child after it was dismissed (its effects \
          were cancelled, so look for a view or test still sending to it).
          """
        )
      case let .missingScreen(id):
        (
          "A stack 'forEach' received an action for a screen that is not on the stack (id \(id)).",
          [], Self.stackCauses
        )
      case let .missingPop(id):
        (
          "A stack 'forEach' received 'popFrom' for a screen that is not on the stack (id \(id)).",
          [], Self.stackCauses
        )
      case let .duplicatePush(id):
        (
          "A stack 'forEach' received 'push' with an id already on the stack (id \(id)).", [],
          Self.stackCauses
        )
      }
    let detailLines = (["Action: \(action)"] + details).map { "  " + $0 }.joined(separator: "\n")
    return """
      \(what)

      \(detailLines)

      The action was dropped and the parent reducer still ran. \(causes)
      """
  }

  private static let stackCauses = """
    This usually means an action was sent for a screen after it was popped (its effects were \
    cancelled, so look for a view or test holding on to a stale id), or a push reused an id.
    """
}

extension _ChildLifetime {
  /// Reports `action`, which the operator could not deliver, as `kind` says.
  @usableFromInline
  func reportStale<Action>(_ kind: _StaleAction, action: Action) {
    reportStale(kind.message(for: _describe(action)))
  }
}
