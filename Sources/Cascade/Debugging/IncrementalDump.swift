/// A state's dump (``stateDump(_:maxElements:)``'s lines) kept between actions, so that a
/// recorder re-dumps only what an action changed: a top-level field equal to what it was keeps
/// its lines, and in a collection field (an array, an identified array) of equatable elements,
/// only the elements that changed are dumped again. The lines are exactly `stateDump`'s.
///
/// Dumping reads every value with `Mirror` (microseconds a field): a recording of a state of
/// 1,000 rows dumped whole at every action cost milliseconds an action. What it costs now is a
/// comparison of the fields (equal collections compare their storage first) and the dump of
/// what changed.
///
/// Only a state that is a struct is dumped this way; any other is dumped whole. A field whose
/// type can hold a shared value is dumped again at every action: a shared value is a
/// reference, whose value can change while the field stays equal.
///
/// `@unchecked Sendable`: it holds parts of one recorder's states (`Sendable` when the recorder
/// is), and the recorder hands it to one dump at a time.
struct _IncrementalDump: @unchecked Sendable {
  private struct Field {
    let label: String
    var value: Any
    /// The field's lines, for a field not dumped element by element.
    var lines: [String]
    /// The elements' lines, for a field dumped as a collection of equatable elements: its
    /// lines are `  label: [`, the elements' lines, then `  ]`.
    var elements: [[String]]?
    /// Whether its type can hold a shared value (see `_mayHoldShared`).
    let holdsShared: Bool
    /// Where its shared values' lines are, counted from its first line.
    var shared: [SharedBlock] = []

    var lineCount: Int {
      guard let elements else { return lines.count }
      return elements.reduce(2) { $0 + $1.count }
    }

    /// The field's lines, assembled for a field dumped element by element.
    var allLines: [String] {
      guard let elements else { return lines }
      var all = ["  \(label): ["]
      for element in elements { all.append(contentsOf: element) }
      all.append("  ]")
      return all
    }
  }

  /// What one action did to the dump.
  enum Step {
    /// The whole dump: the first one, or one of a state whose fields changed in number.
    case whole(lines: [String], shared: [SharedBlock])
    /// The lines that changed, where they are in the whole dump (in the order to apply
    /// them), the shared values' places in the new dump, and the paths of the changed fields.
    case changes([LineChange], shared: [SharedBlock], fields: [String])
  }

  private var typeName = ""
  private var fields: [Field] = []
  private var isPrimed = false
  // The step being made: its changes, the lines it added so far less those it removed, and
  // the paths of the fields it changed.
  private var changes: [LineChange] = []
  private var delta = 0
  private var paths: [String] = []

  /// What `state` changed since the last call, or `nil` when this state is not one to dump
  /// piece by piece.
  mutating func step<State>(of state: State) -> Step? {
    let mirror = Mirror(reflecting: state)
    guard mirror.displayStyle == .struct, contentText(state) == nil,
      !(state is any _PropertyWrapperStorage), !(state is any _SharedValue)
    else { return nil }
    let children = Array(mirror.children)
    guard !children.isEmpty else { return nil }
    guard isPrimed, children.count == fields.count else {
      prime(state, children)
      return .whole(lines: lines, shared: sharedBlocks)
    }
    changes = []
    delta = 0
    paths = []
    var start = 1  // after the `Type(` line
    for (offset, child) in children.enumerated() {
      let count = fields[offset].lineCount
      update(offset, child.value, at: start)
      start += count
    }
    return .changes(changes, shared: sharedBlocks, fields: paths)
  }

  /// The whole dump as it is now.
  var lines: [String] {
    var lines = [typeName + "("]
    for field in fields { lines.append(contentsOf: field.allLines) }
    lines.append(")")
    return lines
  }

  /// Where the shared values' lines are in the whole dump as it is now.
  private var sharedBlocks: [SharedBlock] {
    var blocks: [SharedBlock] = []
    var start = 1
    for field in fields {
      for block in field.shared {
        blocks.append(
          SharedBlock(
            start: start + block.start, end: start + block.end, reference: block.reference))
      }
      start += field.lineCount
    }
    return blocks
  }

  private mutating func prime<State>(_ state: State, _ children: [Mirror.Child]) {
    typeName = typeDescription(type(of: state as Any))
    fields = children.enumerated().map { offset, child in
      let label = child.label.map { $0.hasPrefix(".") ? "[\(offset)]" : $0 } ?? "[\(offset)]"
      var field = Field(
        label: label, value: child.value, lines: [], elements: nil,
        holdsShared: _mayHoldShared(type(of: child.value)))
      Self.dump(&field)
      return field
    }
    isPrimed = true
  }

  /// Brings the field at `offset`, whose lines start at `start` in the dump before this step,
  /// up to `value`, and notes what changed.
  private mutating func update(_ offset: Int, _ value: Any, at start: Int) {
    var field = fields[offset]
    defer { fields[offset] = field }
    if !field.holdsShared, _dumpEqual(field.value, value) == true { return }
    let old = field.value
    field.value = value
    if !field.holdsShared, let elements = field.elements,
      let collection = value as? any _ElementwiseDumpable,
      let changed = collection._changedIndices(from: old), collection._count == elements.count
    {
      var updated = elements
      var elementStart = start + 1  // after `  label: [`
      var position = 0
      for index in changed {
        while position < index {
          elementStart += elements[position].count
          position += 1
        }
        var none: [SharedBlock] = []
        updated[index] = _dumpLines(
          collection._element(at: index), label: "[\(index)]", indent: 2, shared: &none)
        note(from: elements[index], to: updated[index], at: elementStart, prefix: field.label)
      }
      field.elements = updated
      return
    }
    let before = field.allLines
    Self.dump(&field)
    note(from: before, to: field.allLines, at: start, prefix: "")
  }

  /// Notes the changes between two dumps of one field or element whose lines started at
  /// `start` in the dump before this step, and the paths of the fields they touch.
  private mutating func note(from old: [String], to new: [String], at start: Int, prefix: String) {
    let local = lineChanges(old, new)
    guard !local.isEmpty else { return }
    if paths.count < 40 {
      for path in changedFieldPaths(from: old, to: new, changes: local, prefix: prefix)
      where !paths.contains(path) {
        paths.append(path)
      }
    }
    for change in local {
      changes.append(
        LineChange(
          oldStart: start + change.oldStart,
          hunk: RecordedSession.Hunk(
            start: start + delta + change.hunk.start, removed: change.hunk.removed,
            inserted: change.hunk.inserted)))
    }
    delta += new.count - old.count
  }

  /// Dumps a field whole, keeping its elements' lines apart when it is a collection of
  /// equatable elements.
  private static func dump(_ field: inout Field) {
    field.shared = []
    if !field.holdsShared, let collection = field.value as? any _ElementwiseDumpable,
      _dumpsAsElements(field.value, label: field.label, indent: 1), collection._count > 0
    {
      var none: [SharedBlock] = []
      field.elements = (0..<collection._count).map {
        _dumpLines(collection._element(at: $0), label: "[\($0)]", indent: 2, shared: &none)
      }
      field.lines = []
      return
    }
    field.elements = nil
    field.lines = _dumpLines(field.value, label: field.label, indent: 1, shared: &field.shared)
  }
}

/// Whether two values are equal, when their type is `Equatable`; `nil` when it is not.
func _dumpEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
  guard let lhs = lhs as? any Equatable else { return nil }
  func equal<T: Equatable>(_ lhs: T) -> Bool {
    guard let rhs = rhs as? T else { return false }
    return lhs == rhs
  }
  return equal(lhs)
}

/// A collection of equatable elements, compared element by element in code specialized to its
/// element type, so that a recorder finds the few that changed among thousands.
protocol _ElementwiseDumpable {
  var _count: Int { get }
  /// The positions at which this collection differs from `other`, a collection of the same
  /// type and count; `nil` when `other` is not one.
  func _changedIndices(from other: Any) -> [Int]?
  func _element(at position: Int) -> Any
}

extension Array: _ElementwiseDumpable where Element: Equatable {
  var _count: Int { count }
  func _changedIndices(from other: Any) -> [Int]? {
    guard let other = other as? Self, other.count == count else { return nil }
    return indices.filter { self[$0] != other[$0] }
  }
  func _element(at position: Int) -> Any { self[position] }
}

extension IdentifiedArray: _ElementwiseDumpable where Element: Equatable {
  var _count: Int { count }
  func _changedIndices(from other: Any) -> [Int]? {
    guard let other = other as? Self, other.count == count else { return nil }
    return _elements.indices.filter { _elements[$0] != other._elements[$0] }
  }
  func _element(at position: Int) -> Any { _elements[position] }
}
