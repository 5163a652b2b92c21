/// A compact description of an action or state for warnings: the case path and payload,
/// written as a `TestStore` writes actions (``compactDump(_:maxElements:)``:
/// `.path(.element(id: #0, action: .tick))`), so a warning and a test failure name a value the
/// same way. Cut at 300 characters.
@usableFromInline
func _describe<Value>(_ value: Value) -> String {
  var text = compactDump(value)
  if text.count > 300 { text = String(text.prefix(297)) + "..." }
  return text
}

/// The name of the case an enum value is in, or its type name when it is not an enum.
func _caseName<Value>(_ value: Value) -> String {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return "\(Value.self)" }
  if let label = mirror.children.first?.label { return ".\(label)" }
  return ".\(value)"
}
