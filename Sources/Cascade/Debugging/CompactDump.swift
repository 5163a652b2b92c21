/// A one-line description of a value for logs and transcripts: enum cases as `.case(payload)`,
/// structs as `Name(field: value)`, long collections abbreviated, no module names.
///
/// ```swift
/// compactDump(App.Action.path(.element(id: 0, action: .detail(.saveTapped))))
/// // ".path(.element(id: #0, action: .detail(.saveTapped)))"
/// ```
public func compactDump<Value>(_ value: Value, maxElements: Int = 5) -> String {
  _compact(value, maxElements: maxElements, depth: 0)
}

private func _compact(_ value: Any, maxElements: Int, depth: Int) -> String {
  guard depth < 12 else { return "…" }
  let mirror = Mirror(reflecting: value)
  func list(_ children: Mirror.Children, labelled: Bool) -> String {
    let all = Array(children)
    var parts = all.prefix(maxElements).map { child -> String in
      let text = _compact(child.value, maxElements: maxElements, depth: depth + 1)
      guard labelled, let label = child.label, !label.hasPrefix(".") else { return text }
      return "\(label): \(text)"
    }
    if all.count > maxElements { parts.append("…(+\(all.count - maxElements))") }
    return parts.joined(separator: ", ")
  }
  switch value {
  case let string as String: return string.debugDescription
  case let string as Substring: return String(string).debugDescription
  default: break
  }
  switch mirror.displayStyle {
  case .optional:
    guard let some = mirror.children.first else { return "nil" }
    return _compact(some.value, maxElements: maxElements, depth: depth)
  case .enum:
    guard let payload = mirror.children.first, let name = payload.label else { return ".\(value)" }
    let inner = Mirror(reflecting: payload.value)
    if inner.displayStyle == .tuple {
      return ".\(name)(\(list(inner.children, labelled: true)))"
    }
    return ".\(name)(\(_compact(payload.value, maxElements: maxElements, depth: depth + 1)))"
  case .collection, .set:
    return "[\(list(mirror.children, labelled: false))]"
  case .dictionary:
    return compactDictionary(mirror, maxElements: maxElements, depth: depth)
  case .tuple:
    return "(\(list(mirror.children, labelled: true)))"
  case .struct, .class:
    // Dates, ids, URLs and the like read as they do in a state dump: one way to describe a
    // value for warnings, test failures, diffs and recordings.
    if let text = contentText(value, mirror: mirror) { return text }
    if mirror.children.isEmpty
      || value is any CustomStringConvertible
        && !(value is any Collection) && mirror.displayStyle == .class
    {
      return "\(value)"
    }
    if let convertible = value as? any CustomStringConvertible, !(value is any Collection),
      isPrimitive(value)
    {
      return convertible.description
    }
    return "\(typeDescription(type(of: value)))(\(list(mirror.children, labelled: true)))"
  default:
    return "\(value)"
  }
}

/// `[key: value, …]`, the first `maxElements` pairs.
private func compactDictionary(_ mirror: Mirror, maxElements: Int, depth: Int) -> String {
  func compact(_ value: Any) -> String {
    _compact(value, maxElements: maxElements, depth: depth + 1)
  }
  var pairs: [String] = []
  for child in mirror.children.prefix(maxElements) {
    let pair = Array(Mirror(reflecting: child.value).children)
    if child.label == nil, pair.count == 2 {
      pairs.append(compact(pair[0].value) + ": " + compact(pair[1].value))
    } else {
      pairs.append((child.label ?? "?") + ": " + compact(child.value))
    }
  }
  let count = mirror.children.count
  if pairs.isEmpty { return "[:]" }
  let more = count > maxElements ? ", …(+\(count - maxElements))" : ""
  return "[" + pairs.joined(separator: ", ") + more + "]"
}

/// Standard-library values that print best as themselves.
private func isPrimitive(_ value: Any) -> Bool {
  value is any Numeric || value is Bool || value is Character || value is StackElementID
    || value is TextState
}
