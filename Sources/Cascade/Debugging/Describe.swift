/// How Cascade names things in text: the one place every warning, test failure, diff and
/// recording gets a type's name, a case's name or a one-line value from. Values are written by
/// ``compactDump(_:maxElements:)`` (one line) or ``stateDump(_:maxElements:)`` (a tree, for
/// diffs); both name types with `typeDescription` and describe dates, ids and URLs alike.

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
  guard mirror.displayStyle == .enum else { return typeDescription(Value.self) }
  if let label = mirror.children.first?.label { return ".\(label)" }
  return ".\(value)"
}

/// A type's name without modules, also inside generic arguments: `Counter.State`, not
/// `CounterApp.Counter.State`; `IdentifiedArray<Int, Todo>`, not
/// `Cascade.IdentifiedArray<Swift.Int, App.Todo>`.
func typeDescription(_ type: Any.Type) -> String {
  let key = ObjectIdentifier(type)
  if let known = _typeDescriptions.withLock({ $0[key] }) { return known }
  let description = _describeType(type)
  _typeDescriptions.withLock { $0[key] = description }
  return description
}

/// Each type's description, made once: a recorder names the types of every action it records.
private let _typeDescriptions = Guarded<[ObjectIdentifier: String]>([:])

private func _describeType(_ type: Any.Type) -> String {
  var name = String(reflecting: type)
  // Private and local types reflect as "Module.(unknown context at $1234abcd).Name".
  while let start = name.range(of: "(unknown context at "),
    let end = name[start.upperBound...].range(of: ").")
  {
    name.replaceSubrange(start.lowerBound..<end.upperBound, with: "")
  }
  var result = ""
  var segment = ""
  func flush() {
    if let dot = segment.firstIndex(of: ".") {
      result += segment[segment.index(after: dot)...]
    } else {
      result += segment
    }
    segment = ""
  }
  for character in name {
    if character.isLetter || character.isNumber || character == "_" || character == "." {
      segment.append(character)
    } else {
      flush()
      result.append(character)
    }
  }
  flush()
  return result
}
