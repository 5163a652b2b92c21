/// A structural, multi-line description of any value, stable enough to diff: structs and
/// classes with their fields, enums with their case and payload, collections with their
/// elements, optionals as `nil` or their value.
///
/// ```swift
/// print(stateDump(Counter.State(count: 1, tags: ["a"])))
/// // Counter.State(
/// //   count: 1,
/// //   tags: [
/// //     [0]: "a"
/// //   ]
/// // )
/// ```
///
/// Standard value types print by their content, on one line: `UUID(…)`, `Date(…)` in ISO 8601
/// with every fractional digit, `URL(…)`, `Data(…)` in hex, `Decimal(…)`, `Duration(…)`,
/// `Locale(…)`, `TimeZone(…)`, `Calendar(…)`, and any other struct with no fields to show but a
/// `description`. Two values that differ print differently wherever the type lets it.
///
/// Built on `Mirror`: meant for test failures and debugging, never for the per-action path.
public func stateDump<Value>(_ value: Value, maxElements: Int? = nil) -> String {
  var shared: [SharedBlock] = []
  return stateDumpLines(value, maxElements: maxElements, shared: &shared)
    .joined(separator: "\n")
}

/// Where a ``Shared`` value's dump sits among the lines of a state's dump: lines
/// `start..<end`, and the reference it dumps (the same for every holder of one reference).
struct SharedBlock: Equatable, Sendable {
  let start: Int
  let end: Int
  let reference: ObjectIdentifier
}

/// The lines of ``stateDump(_:maxElements:)``, and where the shared values among them are.
func stateDumpLines<Value>(
  _ value: Value, maxElements: Int?, shared: inout [SharedBlock]
) -> [String] {
  var lines: [String] = []
  var visited = Set<ObjectIdentifier>()
  _dump(
    value, label: nil, indent: 0, into: &lines, visited: &visited, maxElements: maxElements,
    sharedBlocks: &shared)
  return lines
}

private let maxDepth = 40

private func _dump(
  _ value: Any, label: String?, indent: Int, into lines: inout [String],
  visited: inout Set<ObjectIdentifier>, maxElements: Int?, sharedBlocks: inout [SharedBlock]
) {
  if let sharedValue = value as? any _SharedValue {
    // A shared value dumps as its value, under the property's name (not its wrapper's).
    let name = label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
    let start = lines.count
    _dump(
      sharedValue._wrappedAny, label: name, indent: indent, into: &lines, visited: &visited,
      maxElements: maxElements, sharedBlocks: &sharedBlocks)
    sharedBlocks.append(
      SharedBlock(
        start: start, end: lines.count, reference: ObjectIdentifier(sharedValue._root)))
    return
  }
  if value is any _PropertyWrapperStorage, let label, label.hasPrefix("_") {
    // `@PresentationState var alert` is stored as `_alert`: shown as the user wrote it.
    return _dump(
      value, label: String(label.dropFirst()), indent: indent, into: &lines, visited: &visited,
      maxElements: maxElements, sharedBlocks: &sharedBlocks)
  }
  let pad = String(repeating: "  ", count: indent)
  let prefix = pad + (label.map { "\($0): " } ?? "")
  if let text = contentText(value) {
    lines.append(prefix + text)
    return
  }
  guard indent < maxDepth else {
    lines.append(prefix + "…")
    return
  }
  let mirror = Mirror(reflecting: value)

  func children(_ open: String, _ close: String, labelled: Bool, sorted: Bool = false) {
    var entries = Array(mirror.children.enumerated())
    if sorted {
      entries.sort { leafText($0.element.value) < leafText($1.element.value) }
    }
    guard !entries.isEmpty else {
      lines.append(prefix + open + close)
      return
    }
    lines.append(prefix + open)
    var hidden = 0
    if !labelled, let maxElements, entries.count > maxElements {
      hidden = entries.count - maxElements
      entries = Array(entries.prefix(maxElements))
    }
    defer { if hidden > 0 { lines.insert(pad + "  … (\(hidden) more)", at: lines.count - 1) } }
    for (offset, child) in entries {
      let childLabel: String? =
        labelled
        ? (child.label.map { $0.hasPrefix(".") ? "[\(offset)]" : $0 } ?? "[\(offset)]")
        : "[\(offset)]"
      _dump(
        child.value, label: sorted ? nil : childLabel, indent: indent + 1, into: &lines,
        visited: &visited, maxElements: maxElements, sharedBlocks: &sharedBlocks)
    }
    lines.append(pad + close)
  }

  switch mirror.displayStyle {
  case .optional:
    if let some = mirror.children.first {
      _dump(
        some.value, label: label, indent: indent, into: &lines, visited: &visited,
        maxElements: maxElements, sharedBlocks: &sharedBlocks)
    } else {
      lines.append(prefix + "nil")
    }
  case .enum:
    let typeName = typeDescription(type(of: value))
    guard let payload = mirror.children.first else {
      lines.append(prefix + "\(typeName).\(value)")
      return
    }
    let caseName = payload.label ?? "\(value)"
    let inner = Mirror(reflecting: payload.value)
    if inner.displayStyle == .tuple, !inner.children.isEmpty {
      lines.append(prefix + "\(typeName).\(caseName)(")
      for (offset, child) in inner.children.enumerated() {
        let childLabel = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
        _dump(
          child.value, label: childLabel ?? "_\(offset)", indent: indent + 1, into: &lines,
          visited: &visited, maxElements: maxElements, sharedBlocks: &sharedBlocks)
      }
      lines.append(pad + ")")
    } else if isLeaf(payload.value) {
      lines.append(prefix + "\(typeName).\(caseName)(\(leafText(payload.value)))")
    } else {
      lines.append(prefix + "\(typeName).\(caseName)(")
      _dump(
        payload.value, label: nil, indent: indent + 1, into: &lines, visited: &visited,
        maxElements: maxElements, sharedBlocks: &sharedBlocks)
      lines.append(pad + ")")
    }
  case .collection:
    children("[", "]", labelled: false)
  case .set:
    children("Set([", "])", labelled: false, sorted: true)
  case .dictionary:
    // A real dictionary reflects (key, value) tuples; a custom mirror may label its children.
    var pairs = mirror.children.map { child -> (String, Any) in
      let pair = Array(Mirror(reflecting: child.value).children)
      if child.label == nil, pair.count == 2 { return (leafText(pair[0].value), pair[1].value) }
      return (child.label ?? "?", child.value)
    }
    if mirror.children.allSatisfy({ $0.label == nil }) { pairs.sort { $0.0 < $1.0 } }
    guard !pairs.isEmpty else {
      lines.append(prefix + "[:]")
      return
    }
    lines.append(prefix + "[")
    for (key, element) in pairs {
      _dump(
        element, label: key, indent: indent + 1, into: &lines, visited: &visited,
        maxElements: maxElements, sharedBlocks: &sharedBlocks)
    }
    lines.append(pad + "]")
  case .tuple:
    children("(", ")", labelled: true)
  case .struct, .class:
    if isLeaf(value) {
      lines.append(prefix + leafText(value))
      return
    }
    // A class seen again on the way down is a cycle: printed once, then marked.
    var entered: ObjectIdentifier?
    if mirror.displayStyle == .class {
      let id = ObjectIdentifier(value as AnyObject)
      guard visited.insert(id).inserted else {
        lines.append(prefix + "\(typeDescription(type(of: value)))(↩︎)")
        return
      }
      entered = id
    }
    children("\(typeDescription(type(of: value)))(", ")", labelled: true)
    if let entered { visited.remove(entered) }
  default:
    lines.append(prefix + leafText(value))
  }
}

/// Values printed on one line: those with no structure to show.
private func isLeaf(_ value: Any) -> Bool {
  if contentText(value) != nil { return true }
  let valueType = type(of: value)
  let id = ObjectIdentifier(valueType)
  if let known = _leafTypes.withLock({ $0[id] }) { return known }
  if value is String || value is Substring || value is Character { return true }
  let mirror = Mirror(reflecting: value)
  let leaf =
    mirror.children.isEmpty
    ? mirror.displayStyle != .collection
    : value is any CustomStringConvertible && !(value is any Collection)
      && mirror.displayStyle != .struct && mirror.displayStyle != .class
  // A struct's, class's or tuple's answer is its type's, unless it reflects itself its own way
  // (an enum's depends on its case, a collection's on its count).
  let style = mirror.displayStyle
  if style == .struct || style == .class || style == .tuple,
    _reflectsAlikeForEveryValue(valueType)
  {
    _leafTypes.withLock { $0[id] = leaf }
  }
  return leaf
}

/// Whether a struct, class or tuple type is a leaf, decided once per type by ``isLeaf(_:)``.
private let _leafTypes = Guarded([ObjectIdentifier: Bool]())

private func leafText(_ value: Any) -> String {
  switch value {
  case let string as String: return string.debugDescription
  case let string as Substring: return String(string).debugDescription
  case let character as Character: return String(character).debugDescription
  default:
    if let text = contentText(value) { return text }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .enum, mirror.children.isEmpty {
      return "\(typeDescription(type(of: value))).\(value)"
    }
    if mirror.displayStyle == .struct, mirror.children.isEmpty {
      return "\(typeDescription(type(of: value)))()"
    }
    return "\(value)"
  }
}

/// A property wrapper whose storage (`_name`) dumps under the property's own name (`name`).
package protocol _PropertyWrapperStorage {}

/// The lines `stateDump` writes for `value` as a child labelled `label` at depth `indent`: a
/// piece of a whole state's dump, for the recorder's incremental dump.
func _dumpLines(
  _ value: Any, label: String?, indent: Int, shared: inout [SharedBlock]
) -> [String] {
  var lines: [String] = []
  var visited = Set<ObjectIdentifier>()
  _dump(
    value, label: label, indent: indent, into: &lines, visited: &visited, maxElements: nil,
    sharedBlocks: &shared)
  return lines
}

/// Whether `stateDump` writes `value` (as a child labelled `label`) as a collection of elements
/// each on lines of their own: `[`, the elements labelled `[0]`, `[1]`, ..., then `]`.
func _dumpsAsElements(_ value: Any, label: String?, indent: Int) -> Bool {
  if value is any _SharedValue { return false }
  if value is any _PropertyWrapperStorage, label?.hasPrefix("_") == true { return false }
  guard indent < maxDepth, contentText(value) == nil else { return false }
  // A stack shows its screens as a dictionary by id: also `[`, the screens, then `]`.
  let style = Mirror(reflecting: value).displayStyle
  return style == .collection || (style == .dictionary && value is any _StackStateMarker)
}

/// A navigation stack, whose dump lists its screens by id.
protocol _StackStateMarker {}
extension StackState: _StackStateMarker {}
