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
    /// The shared values it held when it was dumped, and how many changes each had then.
    var generations: [ObjectIdentifier: UInt64] = [:]
    /// For a field dumped element by element whose elements can hold shared values: where
    /// each element's shared values' lines are, and the generations it held when dumped.
    var elementShared: [[SharedBlock]] = []
    var elementGenerations: [[ObjectIdentifier: UInt64]] = []

    /// For a field dumped element by element: its elements as they were dumped, in storage
    /// of the dump's own (see `_DumpedElements`), and where each element's lines start.
    var dumped: (any _DumpedElements)?
    var offsets = _LineOffsets([])

    var lineCount: Int { elements == nil ? lines.count : offsets.total + 2 }

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
  /// The last collection stamp given out before the collections began logging their
  /// elements' changes for this dump (see `init(trustingStampsAfter:)`).
  private let epoch: UInt64

  /// A dump that compares every element of a collection with its last version.
  init() { epoch = .max }

  /// A dump that trusts an identified collection's stamp and change log for which elements
  /// changed, when its stamp was given out after `epoch` and it logs its elements' in-place
  /// changes (the caller turns that log on in the state it dumps, before each action): a
  /// stamp then names one content and the log says exactly what changed since.
  init(trustingStampsAfter epoch: UInt64) { self.epoch = epoch }
  /// The step being made: its changes, the lines it added so far less those it removed, and
  /// the paths of the fields it changed.
  private struct Pending {
    var changes: [LineChange] = []
    var delta = 0
    var paths: [String] = []
  }

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
    var pending = Pending()
    var start = 1  // after the `Type(` line
    for (offset, child) in children.enumerated() {
      let count = fields[offset].lineCount
      // In place: a copy of the field would share its lines, and changing them would copy
      // every element's.
      Self.update(&fields[offset], child.value, at: start, epoch: epoch, &pending)
      start += count
    }
    return .changes(pending.changes, shared: sharedBlocks, fields: pending.paths)
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
    func add(_ relative: [SharedBlock], at start: Int) {
      for block in relative {
        blocks.append(
          SharedBlock(
            start: start + block.start, end: start + block.end, reference: block.reference))
      }
    }
    var start = 1
    for field in fields {
      add(field.shared, at: start)
      if let elements = field.elements, !field.elementShared.isEmpty {
        var elementStart = start + 1
        for (index, element) in elements.enumerated() {
          add(field.elementShared[index], at: elementStart)
          elementStart += element.count
        }
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
      Self.dump(&field, epoch: epoch)
      return field
    }
    isPrimed = true
  }

  /// Brings `field`, whose lines start at `start` in the dump before this step, up to
  /// `value`, and notes what changed in `pending`.
  private static func update(
    _ field: inout Field, _ value: Any, at start: Int, epoch: UInt64, _ pending: inout Pending
  ) {
    // A field kept element by element is compared element by element below; any other first
    // as a whole. A shared value is a reference: equal fields show the same lines only if the
    // shared values they hold have not changed since.
    if field.elements == nil, _dumpEqual(field.value, value) == true {
      if !field.holdsShared || generations(in: value) == field.generations { return }
    }
    if let dumped = field.dumped, let collection = value as? any _ElementwiseDumpable,
      var changed = dumped.update(to: value)
    {
      let count = collection._count
      let tracksShared = !field.elementGenerations.isEmpty
      if tracksShared {
        // Elements equal but holding a shared value that changed since are changed too.
        let known = Set(changed)
        for index in 0..<count
        where !known.contains(index)
          && generations(in: collection._element(at: index)) != field.elementGenerations[index]
        {
          changed.append(index)
        }
        changed.sort()
      }
      // The lines this step's earlier elements added, less those they removed: an element's
      // start in the dump before this step is its start now less them.
      var added = 0
      for index in changed {
        // After `  label: [`.
        let elementStart = start + 1 + field.offsets.lines(before: index) - added
        let element = collection._element(at: index)
        if tracksShared { field.elementGenerations[index] = generations(in: element) }
        var blocks: [SharedBlock] = []
        let lines = _dumpLines(
          element, label: collection._elementLabel(at: index), indent: 2, shared: &blocks)
        if tracksShared { field.elementShared[index] = blocks }
        let before = field.elements![index]
        field.elements![index] = lines
        field.offsets.add(lines.count - before.count, at: index)
        added += lines.count - before.count
        note(from: before, to: lines, at: elementStart, prefix: field.label, &pending)
      }
      if field.holdsShared { field.generations = generations(in: value) }
      return
    }
    let before = field.allLines
    field.value = value
    dump(&field, epoch: epoch)
    note(from: before, to: field.allLines, at: start, prefix: "", &pending)
  }

  /// Notes the changes between two dumps of one field or element whose lines started at
  /// `start` in the dump before this step, and the paths of the fields they touch.
  private static func note(
    from old: [String], to new: [String], at start: Int, prefix: String, _ pending: inout Pending
  ) {
    let local = lineChanges(old, new)
    guard !local.isEmpty else { return }
    if pending.paths.count < 40 {
      for path in changedFieldPaths(from: old, to: new, changes: local, prefix: prefix)
      where !pending.paths.contains(path) {
        pending.paths.append(path)
      }
    }
    for change in local {
      pending.changes.append(
        LineChange(
          oldStart: start + change.oldStart,
          hunk: RecordedSession.Hunk(
            start: start + pending.delta + change.hunk.start, removed: change.hunk.removed,
            inserted: change.hunk.inserted)))
    }
    pending.delta += new.count - old.count
  }

  /// The shared values `value` holds, with how many changes each has committed.
  private static func generations(in value: Any) -> [ObjectIdentifier: UInt64] {
    var generations: [ObjectIdentifier: UInt64] = [:]
    for root in _sharedRoots(in: value) { generations[ObjectIdentifier(root)] = root._generation }
    return generations
  }

  private static func dump(_ field: inout Field, epoch: UInt64) {
    field.shared = []
    field.elementShared = []
    field.elementGenerations = []
    field.dumped = nil
    if field.holdsShared { field.generations = generations(in: field.value) }
    if let collection = field.value as? any _ElementwiseDumpable,
      _dumpsAsElements(field.value, label: field.label, indent: 1), collection._count > 0
    {
      let tracksShared = field.holdsShared
      var elements: [[String]] = []
      for index in 0..<collection._count {
        let element = collection._element(at: index)
        var blocks: [SharedBlock] = []
        elements.append(
          _dumpLines(
            element, label: collection._elementLabel(at: index), indent: 2, shared: &blocks))
        if tracksShared {
          field.elementShared.append(blocks)
          field.elementGenerations.append(generations(in: element))
        }
      }
      field.elements = elements
      field.offsets = _LineOffsets(elements.map(\.count))
      field.lines = []
      // Kept as a copy of its own, not as the value: the value's storage is the state's, and
      // while the dump held it, the store's next change to the collection copied it whole.
      field.dumped = collection._dumped(trustingStampsAfter: epoch)
      field.value = ()
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
  func _element(at position: Int) -> Any
  /// The element's label in the dump: `[3]`, or a stack screen's id, `#3`.
  func _elementLabel(at position: Int) -> String
  /// Its elements as they are now, to find which later versions changed.
  func _dumped(trustingStampsAfter epoch: UInt64) -> any _DumpedElements
}

/// A collection's elements as a dump last showed them, in an array of its own: holding the
/// collection itself would share its storage with the state's, which the store's next change
/// to any element would then copy whole.
protocol _DumpedElements: AnyObject {
  /// The positions at which `value` differs from the elements kept, in order, the kept ones
  /// brought up to it; `nil` when `value` is not a collection of the same type and count.
  func update(to value: Any) -> [Int]?
}

/// An array's elements, all compared at each step.
final class _DumpedArray<Element: Equatable>: _DumpedElements {
  private var elements: [Element]

  init(_ elements: [Element]) { self.elements = elements.withUnsafeBufferPointer { Array($0) } }

  func update(to value: Any) -> [Int]? {
    guard let new = value as? [Element], new.count == elements.count else { return nil }
    var changed: [Int] = []
    for index in new.indices where new[index] != elements[index] {
      changed.append(index)
      elements[index] = new[index]
    }
    return changed
  }
}

/// An identified collection's elements (an identified array's, a stack's screens): only those
/// its change log names are compared, when its stamp can be trusted, so that a step costs the
/// same whichever of thousands of elements changed.
final class _DumpedIdentified<ID: Hashable & Sendable, Element>: _DumpedElements {
  private var elements: [Element]
  private var stamp: UInt64
  private let epoch: UInt64
  private let same: (Element, Element) -> Bool
  private let entries: (Any) -> IdentifiedArray<ID, Element>?

  init(
    _ collection: IdentifiedArray<ID, Element>, epoch: UInt64,
    same: @escaping (Element, Element) -> Bool,
    entries: @escaping (Any) -> IdentifiedArray<ID, Element>?
  ) {
    elements = collection._elements.withUnsafeBufferPointer { Array($0) }
    stamp = collection._stamp
    self.epoch = epoch
    self.same = same
    self.entries = entries
  }

  func update(to value: Any) -> [Int]? {
    guard let new = entries(value), new._elements.count == elements.count else { return nil }
    defer { stamp = new._stamp }
    var changed: [Int] = []
    func compare(_ index: Int) {
      guard !same(new._elements[index], elements[index]) else { return }
      changed.append(index)
      elements[index] = new._elements[index]
    }
    if stamp > epoch, new._logsElementChanges, let logged = new._positionsModified(since: stamp) {
      for index in Set(logged).sorted() { compare(index) }
    } else {
      for index in new._elements.indices { compare(index) }
    }
    return changed
  }
}

extension IdentifiedArray {
  /// The positions of the elements changed in place since the array had `stamp`, with
  /// repeats, when its log tells and no id was added, removed or moved since; `nil` otherwise.
  /// Exact only for an array that logs its elements' in-place changes (`_logsElementChanges`):
  /// turning the log on gives a new stamp, so the log names every change since a stamp it holds.
  func _positionsModified(since stamp: UInt64) -> [Int]? {
    if stamp == _stamp { return [] }
    guard let start = _log.start(since: stamp) else { return nil }
    var positions: [Int] = []
    for entry in _log.entries[start...] {
      guard case let .modified(id) = entry.change, let position = _positions[id] else {
        return nil
      }
      positions.append(position)
    }
    return positions
  }
}

/// The line counts of a collection's elements, kept so that where an element's lines start
/// is a sum of a few numbers (a Fenwick tree), whichever element it is: walked from the
/// first, the 9,000th of 10,000 rows cost 9,000 reads.
struct _LineOffsets {
  /// `tree[i]` holds the sum of the counts of the `i & -i` elements ending at `i - 1`.
  private var tree: [Int]
  private(set) var total: Int

  init(_ counts: [Int]) {
    tree = [0] + counts
    total = counts.reduce(0, +)
    for index in tree.indices.dropFirst() {
      let parent = index + (index & -index)
      if parent < tree.count { tree[parent] += tree[index] }
    }
  }

  /// The lines of the elements before `position`.
  func lines(before position: Int) -> Int {
    var sum = 0
    var index = position
    while index > 0 {
      sum += tree[index]
      index -= index & -index
    }
    return sum
  }

  /// Adds `delta` lines to the element at `position`.
  mutating func add(_ delta: Int, at position: Int) {
    guard delta != 0 else { return }
    total += delta
    var index = position + 1
    while index < tree.count {
      tree[index] += delta
      index += index & -index
    }
  }
}

extension Array: _ElementwiseDumpable where Element: Equatable {
  var _count: Int { count }
  func _element(at position: Int) -> Any { self[position] }
  func _elementLabel(at position: Int) -> String { "[\(position)]" }
  func _dumped(trustingStampsAfter epoch: UInt64) -> any _DumpedElements { _DumpedArray(self) }
}

extension IdentifiedArray: _ElementwiseDumpable where Element: Equatable {
  var _count: Int { count }
  func _element(at position: Int) -> Any { _elements[position] }
  func _elementLabel(at position: Int) -> String { "[\(position)]" }
  func _dumped(trustingStampsAfter epoch: UInt64) -> any _DumpedElements {
    _DumpedIdentified(self, epoch: epoch, same: ==) { $0 as? Self }
  }
}

extension StackState: _ElementwiseDumpable where Element: Equatable {
  var _count: Int { _entries.count }
  func _element(at position: Int) -> Any { _entries._elements[position].element }
  func _elementLabel(at position: Int) -> String { "\(_entries._elements[position].id)" }
  func _dumped(trustingStampsAfter epoch: UInt64) -> any _DumpedElements {
    _DumpedIdentified(
      _entries, epoch: epoch, same: { $0.id == $1.id && $0.element == $1.element },
      entries: { ($0 as? Self)?._entries })
  }
}
