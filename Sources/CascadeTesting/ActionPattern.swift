import Cascade

/// A path into a nested action, written as a key path: what `TestStore.receive(_:)` takes to
/// receive an action several levels down without naming every case path.
///
/// Each `.name` is an enum case, matched by its name; `[id: …]` picks the element of a stack
/// (`StackAction.element`) or of a collection (`IdentifiedAction.element`) with that id; a
/// presented child's case is reached through `.presented` without spelling it, as in TCA.
///
/// ```swift
/// // Main.Action.path(.element(id: 0, action: .detail(.presented(.loaded(result)))))
/// await store.receive(\.path[id: 0].detail.loaded) {
///   $0.path[id: 0, case: Path.State.detail]?.isLoading = false
/// }
/// ```
///
/// The payload need not be `Equatable`. A case name that does not exist never matches: the
/// receive fails and shows the action that came.
@dynamicMemberLookup
public struct ActionPattern: Hashable {
  enum Step: Hashable {
    case name(String)
    case id(AnyHashable)
  }

  let steps: [Step]

  init(steps: [Step] = []) { self.steps = steps }

  /// The case called `name`.
  public subscript(dynamicMember name: String) -> ActionPattern {
    ActionPattern(steps: steps + [.name(name)])
  }

  /// The element with `id` of a stack or a collection.
  public subscript(id id: StackElementID) -> ActionPattern {
    ActionPattern(steps: steps + [.id(AnyHashable(id))])
  }

  /// The element with `id` of a collection whose ids are not stack ids.
  public subscript<ID: Hashable & Sendable>(id id: ID) -> ActionPattern {
    ActionPattern(steps: steps + [.id(AnyHashable(id))])
  }

  /// The steps a key path over patterns takes, found by following it from the empty pattern.
  static func steps(of keyPath: KeyPath<ActionPattern, ActionPattern>) -> [Step] {
    ActionPattern()[keyPath: keyPath].steps
  }

  /// A readable form of the pattern: `\.path[id: 0].detail.loaded`.
  var description: String {
    "\\"
      + steps.map { step in
        switch step {
        case let .name(name): ".\(name)"
        case let .id(id): "[id: \(id.base)]"
        }
      }.joined()
  }

  /// The payload at the end of the path when `action` follows it, or `nil`.
  func extract(from action: Any) -> Any? {
    var value = action
    for step in steps {
      guard let next = follow(step, in: value) else { return nil }
      value = next
    }
    return value
  }

  private func follow(_ step: Step, in value: Any) -> Any? {
    guard let (name, payload) = enumCase(of: value) else { return nil }
    switch step {
    case let .name(wanted):
      if name == wanted { return payload ?? () }
      // A presented child's own cases are reached through `.presented`, unspelled.
      if name == "presented", wanted != "dismiss", let payload {
        return follow(step, in: payload)
      }
      return nil
    case let .id(wanted):
      guard name == "element", let payload else { return nil }
      let fields = Array(Mirror(reflecting: payload).children)
      guard fields.count == 2, let id = fields[0].value as? any Hashable else { return nil }
      guard sameID(id, wanted) else { return nil }
      return fields[1].value
    }
  }

  private func sameID(_ id: any Hashable, _ wanted: AnyHashable) -> Bool {
    if AnyHashable(id) == wanted { return true }
    // `[id: 0]` on a stack: the literal may have been taken as an `Int`.
    if let stackID = id as? StackElementID, let int = wanted.base as? Int {
      return stackID.rawValue == int
    }
    return false
  }

  /// The case name and payload of an enum value, looking through optionals.
  private func enumCase(of value: Any) -> (String, Any?)? {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .enum:
      guard let child = mirror.children.first else { return ("\(value)", nil) }
      guard let label = child.label else { return nil }
      return (label, child.value)
    case .optional:
      guard let some = mirror.children.first else { return nil }
      return enumCase(of: some.value)
    default:
      return nil
    }
  }
}
