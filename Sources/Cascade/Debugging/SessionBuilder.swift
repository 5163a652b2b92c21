/// Builds a ``RecordedSession`` as a recorder sees actions: the state's lines after each action
/// are compared with the lines before it, and only the changed runs are kept.
///
/// The dumps (`Mirror`) are taken by the recorder outside its lock; this type only compares
/// lines, so it can run under the lock.
struct SessionBuilder: Sendable {
  private(set) var session: RecordedSession
  private var lines: [String] = []
  private var sharedBlocks: [SharedBlock] = []
  private(set) var hasInitialState = false
  /// The serial of the last send-loop batch an action was recorded in.
  private var lastBatch: UInt64?

  init(stateType: String, actionType: String) {
    session = RecordedSession(
      stateType: stateType, actionType: actionType, initialState: [], steps: [])
  }

  /// The state before the first action.
  mutating func setInitialState(_ lines: [String], shared: [SharedBlock]) {
    guard !hasInitialState else { return }
    hasInitialState = true
    self.lines = lines
    sharedBlocks = shared
    session.initialState = lines
  }

  /// Writes the text of the action of step `step`.
  mutating func title(step: Int, _ text: ActionText) { session.title(step, text) }

  /// Where the action being reduced came from: the first action of a batch started outside
  /// the store is the user's; every other one was sent by an effect.
  mutating func origin(batch: UInt64, startedByUser: Bool) -> ActionOrigin {
    defer { lastBatch = batch }
    return batch != lastBatch && startedByUser ? .user : .effect
  }

  /// Appends a step: `action`'s text and cases, and the state's lines after it, compared with
  /// the lines before it.
  mutating func append(
    action: ActionText, origin: ActionOrigin, lines newLines: [String], shared: [SharedBlock]
  ) {
    let changes = lineChanges(lines, newLines)
    let fields = changedFieldPaths(from: lines, to: newLines, changes: changes)
    append(action: action, origin: origin, changes: changes, shared: shared, fields: fields)
  }

  /// Appends a step from the changes a dump made to the state's lines, and the paths of the
  /// fields it changed: the lines are changed in place, never compared whole.
  mutating func append(
    action: ActionText, origin: ActionOrigin, changes: [LineChange], shared: [SharedBlock],
    fields: [String]
  ) {
    var fields = fields
    // A field inside a listed one says nothing more: `mySchool`, not also `mySchool.id`.
    fields = Array(
      fields.filter { field in
        !fields.contains { field.hasPrefix($0 + ".") || field.hasPrefix($0 + "[") }
      }
      .prefix(6))
    // A reference changed when its value did: compared without the holder's label and
    // indentation, since each holder shows it under its own name and depth.
    func value(_ block: SharedBlock, in lines: [String]) -> [Substring] {
      lines[block.start..<block.end].enumerated().map { offset, line in
        let text = line.drop { $0 == " " }
        guard offset == 0, let colon = text.range(of: ": ") else { return text }
        return text[colon.upperBound...]
      }
    }
    var before: [ObjectIdentifier: [String]] = [:]
    for block in sharedBlocks where before[block.reference] == nil {
      before[block.reference] = value(block, in: lines).map(String.init)
    }
    let hunks = changes.map(\.hunk)
    RecordedSession.apply(hunks, to: &lines)
    var changedReferences: Set<ObjectIdentifier> = []
    for block in shared where !changedReferences.contains(block.reference) {
      guard let old = before[block.reference] else { continue }
      if old != value(block, in: lines).map(String.init) {
        changedReferences.insert(block.reference)
      }
    }
    let changedShared = shared.filter { changedReferences.contains($0.reference) }
    session.steps.append(
      RecordedSession.Step(
        action: action.text, casePath: action.casePath, origin: origin, screen: action.screen,
        changes: hunks, fields: fields,
        shared: changedShared.prefix(6).map { fieldPath(ofLine: $0.start, in: lines) }))
    sharedBlocks = shared
  }
}

/// The paths of the fields `changes` touch in `old` and `new` (at most 40), in order.
func changedFieldPaths(
  from old: [String], to new: [String], changes: [LineChange], prefix: String = ""
) -> [String] {
  var fields: [String] = []
  func note(_ index: Int, in lines: [String]) {
    // A closing line belongs to the value its opening line names, which is listed too.
    let content = lines[index].drop { $0 == " " }
    guard !content.hasPrefix(")"), !content.hasPrefix("]") else { return }
    var path = fieldPath(ofLine: index, in: lines)
    if !prefix.isEmpty { path = path == "(root)" ? prefix : prefix + path }
    if !fields.contains(path) { fields.append(path) }
  }
  for change in changes where fields.count < 40 {
    for index in change.oldStart..<(change.oldStart + change.hunk.removed)
    where fields.count < 40 {
      note(index, in: old)
    }
    let start = change.hunk.start
    for index in start..<(start + change.hunk.inserted.count) where fields.count < 40 {
      note(index, in: new)
    }
  }
  return fields
}

/// The path of the field a line of a ``stateDump(_:maxElements:)`` shows, from the labels of
/// the lines that enclose it: `path[#1].myTouches`, `tags[3]`, `scores["a"]`. A closing line
/// belongs to the value it closes.
func fieldPath(ofLine index: Int, in lines: [String]) -> String {
  guard lines.indices.contains(index) else { return "" }
  var labels: [Substring] = []
  var indent = indentation(lines[index])
  if let label = label(of: lines[index], indent: indent) { labels.append(label) }
  var position = index - 1
  while position >= 0, indent > 0 {
    let level = indentation(lines[position])
    if level < indent {
      indent = level
      if let label = label(of: lines[position], indent: level) { labels.append(label) }
    }
    position -= 1
  }
  var path = ""
  for var label in labels.reversed() {
    // A property wrapper's storage (`_destination`) is named after its property.
    if label.hasPrefix("_"), label.dropFirst().first?.isLetter == true { label = label.dropFirst() }
    if label.hasPrefix("[") {
      path += label
    } else if label.hasPrefix("#") || label.hasPrefix("\"") {
      path += "[\(label)]"
    } else {
      path += path.isEmpty ? String(label) : ".\(label)"
    }
  }
  return path.isEmpty ? "(root)" : path
}

private func indentation(_ line: String) -> Int {
  var count = 0
  for character in line.utf8 {
    guard character == UInt8(ascii: " ") else { break }
    count += 1
  }
  return count / 2
}

/// A line's label: what comes before its first `: ` (a quoted key read to its closing quote).
private func label(of line: String, indent: Int) -> Substring? {
  let content = line.dropFirst(indent * 2)
  if content.hasPrefix("\"") {
    var escaped = false
    for index in content.indices.dropFirst() {
      let character = content[index]
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        let end = content.index(after: index)
        return content[end...].hasPrefix(": ") ? content[..<end] : nil
      }
    }
    return nil
  }
  // The first ": ", found without Foundation's locale-aware search.
  var colon: Substring.Index?
  var index = content.startIndex
  while index < content.endIndex {
    let next = content.index(after: index)
    if content[index] == ":", next < content.endIndex, content[next] == " " {
      colon = index
      break
    }
    index = next
  }
  guard let colon else { return nil }
  let label = content[..<colon]
  // Byte by byte: `contains(" ")` would be Foundation's substring search, which cost an
  // eighth of a recorded step.
  let isName =
    !label.isEmpty && !label.utf8.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "(") }
  return isName ? label : nil
}

extension RecordedSession {
  /// Writes the text of the action of step `step`.
  mutating func title(_ step: Int, _ text: ActionText) {
    guard steps.indices.contains(step) else { return }
    steps[step].action = text.text
    steps[step].casePath = text.casePath
    steps[step].screen = text.screen
  }
}
