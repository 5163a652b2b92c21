/// What the inspector shows of an action, read with `Mirror` when it is recorded.
struct ActionText {
  let text: String
  let casePath: String
  let screen: String

  /// A step's text before it is made (see `Recorder.recording`).
  static let untitled = ActionText(text: "", casePath: "", screen: "")

  private init(text: String, casePath: String, screen: String) {
    self.text = text
    self.casePath = casePath
    self.screen = screen
  }

  init(_ action: Any) {
    text = compactDump(action, maxElements: 3)
    var cases: [String] = []
    var screens: [String] = []
    var value = action
    // Follow the enum cases down: into a payload that is itself an enum (a child's action),
    // or, in a tuple (`.element(id:action:)`), into its last enum member.
    for _ in 0..<16 {
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle == .enum else { break }
      guard let payload = mirror.children.first, let name = payload.label else {
        cases.append("\(value)")
        break
      }
      cases.append(name)
      var next = payload.value
      let inner = Mirror(reflecting: next)
      if inner.displayStyle == .tuple {
        guard
          let member = Array(inner.children).last(where: {
            Mirror(reflecting: $0.value).displayStyle == .enum
          })
        else { break }
        next = member.value
      }
      guard Mirror(reflecting: next).displayStyle == .enum else { break }
      // A case whose payload is a feature's action names a screen; wrappers do not.
      let typeName = typeDescription(type(of: next))
      if typeName.hasSuffix("Action") || typeName.contains("Action<"),
        name != "element", name != "presented"
      {
        screens.append(name)
      }
      value = next
    }
    casePath = cases.joined(separator: ".")
    screen = screens.isEmpty ? "root" : screens.joined(separator: " › ")
  }
}
