/// An ordered collection of elements addressed by their ids: O(1) lookup, update and
/// membership by id, and array order for display.
///
/// Features keep lists of child state in an identified array so that an action can name the
/// element it is for by id, which stays valid while rows are inserted, moved or removed.
///
/// ```swift
/// struct Todo: Identifiable { let id: Int; var title: String }
///
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]
/// todos[id: 2]?.title = "Bread"     // update in place
/// todos[id: 3] = Todo(id: 3, title: "Tea")   // append
/// todos[id: 1] = nil                // remove
/// todos.map(\.title)                // ["Bread", "Tea"]
/// ```
public struct IdentifiedArray<ID: Hashable & Sendable, Element> {
  @usableFromInline var _elements: [Element]
  @usableFromInline var _positions: [ID: Int]
  /// Reads an element's id. Not `@Sendable` in its type only because `{ $0.id }` in generic
  /// code cannot be; every value stored here is a pure accessor (see the `Sendable` conformance).
  @usableFromInline let _id: (Element) -> ID
  /// Changes with every change: to the set or order of ids, or to an element; see
  /// `_nextStructureStamp`.
  @usableFromInline var _stamp: UInt64
  /// The last changes, for the navigation operators and for the stores of rows.
  @usableFromInline var _log = _StructureLog<ID>()
  /// Whether in-place changes to elements are logged (and stamped): off until whoever reads
  /// them (a row's store, an inspectable recorder) turns it on for the collection it holds, with
  /// ``_startLoggingElementChanges()``. It travels with the value: a copy logs as its original.
  @usableFromInline var _logsElementChanges = false

  /// Creates an array of elements whose ids `id` reads.
  ///
  /// - Precondition: the ids are unique.
  public init<S: Sequence>(
    uniqueElements elements: S, id: @escaping @Sendable (Element) -> ID
  ) where S.Element == Element {
    self.init(uniqueElements: elements, accessor: id)
  }

  private mutating func append<S: Sequence>(uniqueElements elements: S)
  where S.Element == Element {
    for element in elements {
      let elementID = _id(element)
      precondition(
        _positions[elementID] == nil,
        "IdentifiedArray: the id \(elementID) appears twice; ids must be unique.")
      _positions[elementID] = _elements.count
      _elements.append(element)
    }
  }

  /// Creates an empty array whose elements' ids `id` reads.
  public init(id: @escaping @Sendable (Element) -> ID) {
    self.init(uniqueElements: [], id: id)
  }

  init<S: Sequence>(
    uniqueElements elements: S, accessor id: @escaping (Element) -> ID
  ) where S.Element == Element {
    self._elements = []
    self._positions = [:]
    self._id = id
    self._stamp = _nextStructureStamp()
    append(uniqueElements: elements)
  }

  /// The ids, in order.
  public var ids: [ID] { _elements.map(_id) }

  /// Reads, updates, inserts (at the end) or removes (assigning `nil`) the element with `id`.
  ///
  /// - Precondition: a value assigned has the id it is assigned to.
  @inlinable
  public subscript(id id: ID) -> Element? {
    get { _positions[id].map { _elements[$0] } }
    _modify {
      if let position = _positions[id] {
        var element: Element? = _elements[position]
        defer {
          if let element {
            precondition(_id(element) == id, "IdentifiedArray: an element's id cannot change.")
            _elements[position] = element
            _elementModified(id)
          } else {
            _remove(at: position)
          }
        }
        yield &element
      } else {
        var element: Element? = nil
        defer {
          if let element {
            precondition(_id(element) == id, "IdentifiedArray: an element's id cannot change.")
            append(element)
          }
        }
        yield &element
      }
    }
  }

  /// Whether an element with `id` is present.
  @inlinable
  public func contains(id: ID) -> Bool { _positions[id] != nil }

  /// The position of the element with `id`.
  @inlinable
  public func index(id: ID) -> Int? { _positions[id] }

  /// Appends `element` unless its id is already present.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    let elementID = _id(element)
    let end = _elements.count
    var inserted = false
    // One hash lookup, not two: the defaulting subscript inserts `end` only when the id is
    // absent (its default is evaluated only then), and gives the position found either way.
    func found(_ position: inout Int) -> Int { position }
    let position = found(
      &_positions[
        elementID,
        default: {
          inserted = true
          return end
        }()])
    guard inserted else { return (false, position) }
    _elements.append(element)
    _structureChanged(.added(elementID))
    return (true, end)
  }

  /// Appends each element whose id is not yet present.
  public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
    for element in elements { append(element) }
  }

  /// Inserts `element` at `index` unless its id is already present.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    let elementID = _id(element)
    if let position = _positions[elementID] { return (false, position) }
    _elements.insert(element, at: index)
    _reindex(from: index)
    _structureChanged(.added(elementID))
    return (true, index)
  }

  /// Removes and returns the element with `id`, if present.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = _positions[id] else { return nil }
    return _remove(at: position)
  }

  /// Removes and returns the element at `index`.
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element { _remove(at: index) }

  /// Replaces the element with the same id in place, or appends `element` when its id is new;
  /// returns the element it replaced.
  ///
  /// ```swift
  /// todos.updateOrAppend(Todo(id: 2, title: "Bread"))   // replaces Eggs, returns it
  /// ```
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    let elementID = _id(element)
    guard let position = _positions[elementID] else {
      append(element)
      return nil
    }
    defer {
      _elements[position] = element
      _elementModified(elementID)
    }
    return _elements[position]
  }

  /// Removes the elements at `offsets`, as `List`'s `onDelete` gives them.
  ///
  /// ```swift
  /// todos.remove(atOffsets: [0, 2])
  /// ```
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let removed = Set(offsets)
    guard !removed.isEmpty else { return }
    var kept: [Element] = []
    kept.reserveCapacity(_elements.count - removed.count)
    for (offset, element) in _elements.enumerated() where !removed.contains(offset) {
      kept.append(element)
    }
    _elements = kept
    _reindex(from: 0)
    _structureChanged(nil)
  }

  /// Removes every element that satisfies `shouldBeRemoved`.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let before = _elements.count
    try _elements.removeAll(where: shouldBeRemoved)
    if _elements.count != before {
      _reindex(from: 0)
      _structureChanged(nil)
    }
  }

  /// The elements that satisfy `isIncluded`, in order, as an identified array with the same
  /// ids (the `Sequence` method returns an `Array`; this one is chosen unless the context asks
  /// for an `Array`).
  ///
  /// ```swift
  /// var filteredTodos: IdentifiedArrayOf<Todo> {
  ///   todos.filter { !$0.isComplete }
  /// }
  /// ```
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    Self(uniqueElements: try _elements.filter(isIncluded), accessor: _id)
  }

  /// Removes every element.
  public mutating func removeAll() {
    guard !_elements.isEmpty else { return }
    _elements.removeAll()
    _positions.removeAll()
    _structureChanged(nil)
  }

  /// Sorts the elements in place.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try _elements.sort(by: areInIncreasingOrder)
    _reindex(from: 0)
    _structureChanged(.reordered)
  }

  /// Moves the elements at `source` to `destination`, as `List`'s `onMove` describes it.
  public mutating func move<Offsets: Sequence<Int>>(
    fromOffsets source: Offsets, toOffset destination: Int
  ) {
    let source = Set(source)
    let moving = source.sorted().map { _elements[$0] }
    let before = source.filter { $0 < destination }.count
    for index in source.sorted(by: >) { _elements.remove(at: index) }
    _elements.insert(contentsOf: moving, at: destination - before)
    _reindex(from: 0)
    _structureChanged(.reordered)
  }

  /// Mutates the element at `position` in place (no copy of the element is made).
  @inlinable
  mutating func _modifyElement<Result>(
    at position: Int, _ body: (inout Element) -> Result
  ) -> Result {
    // No `defer`: it would take `body` out of line, a closure call per element action.
    let result = body(&_elements[position])
    if _logsElementChanges { _elementModified(at: position) }
    return result
  }

  /// Mutates the element with `id` in place without logging it or changing the stamp, for a
  /// change that is not the element's content (turning on the log of a collection it holds);
  /// does nothing when there is no such element.
  mutating func _modifyElementUnlogged(id: ID, _ body: (inout Element) -> Void) {
    guard let position = _positions[id] else { return }
    body(&_elements[position])
    precondition(_id(_elements[position]) == id, "IdentifiedArray: an element's id cannot change.")
  }

  /// Turns on the log of in-place changes to elements, for as long as this value (and its
  /// copies) lives. It gives the array a new stamp: a stamp names one content only while the
  /// log is on, so no stamp given while it was off is trusted by what reads the log.
  @inlinable
  mutating func _startLoggingElementChanges() {
    guard !_logsElementChanges else { return }
    _logsElementChanges = true
    _stamp = _nextStructureStamp()
  }

  /// The elements as a plain array.
  public var elements: [Element] { _elements }

  @inlinable
  @discardableResult
  mutating func _remove(at position: Int) -> Element {
    let element = _elements.remove(at: position)
    let elementID = _id(element)
    _positions[elementID] = nil
    _reindex(from: position)
    _structureChanged(.removed(elementID))
    return element
  }

  @inlinable
  mutating func _reindex(from start: Int) {
    if start == 0 { _positions.removeAll(keepingCapacity: true) }
    for index in start..<_elements.count { _positions[_id(_elements[index])] = index }
  }

  /// Gives the array a new stamp and logs `change` (`nil`: a change the log does not describe,
  /// which empties it).
  @inlinable
  mutating func _structureChanged(_ change: _StructureLog<ID>.Change?) {
    if let change { _log.record(change, at: _stamp) } else { _log.reset() }
    _stamp = _nextStructureStamp()
  }

  /// Gives the array a new stamp and logs that the element with `id` changed in place, when
  /// its log of element changes is on (``_logsElementChanges``); otherwise nothing reads it.
  @inlinable
  mutating func _elementModified(_ id: ID) {
    guard _logsElementChanges else { return }
    _logModified(id)
  }

  /// Logs that the element at `position` changed in place; the caller checked that the log of
  /// element changes is on. Out of line, off the action's path.
  @usableFromInline
  @inline(never)
  mutating func _elementModified(at position: Int) {
    _logModified(_id(_elements[position]))
  }

  @inlinable
  mutating func _logModified(_ id: ID) {
    _log.record(.modified(id), at: _stamp)
    _stamp = _nextStructureStamp()
  }
}

/// An identified array of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>
where Element.ID: Sendable

extension IdentifiedArray where Element: Identifiable, Element.ID == ID {
  /// Creates an array of `Identifiable` elements.
  ///
  /// - Precondition: the ids are unique.
  public init<S: Sequence>(uniqueElements elements: S) where S.Element == Element {
    self.init(uniqueElements: elements, accessor: { $0.id })
  }

  /// Creates an empty array.
  public init() { self.init(uniqueElements: [], accessor: { $0.id }) }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, Element.ID == ID {
  /// Creates an array of the listed elements, in order.
  ///
  /// ```swift
  /// let todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]
  /// ```
  ///
  /// - Precondition: the ids are unique.
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  /// The position of the first element: always 0.
  @inlinable public var startIndex: Int { 0 }
  /// The position after the last element, which is the number of elements.
  @inlinable public var endIndex: Int { _elements.count }
  /// The number of elements: O(1).
  @inlinable public var count: Int { _elements.count }
  /// Whether there are no elements.
  @inlinable public var isEmpty: Bool { _elements.isEmpty }

  /// The element at `position`.
  ///
  /// Assigning an element with the same id replaces it in place. Assigning one with another id
  /// puts it at `position`: if that id was elsewhere in the array, the element that stood at
  /// `position` moves to where it was (ids stay unique, nothing else is lost), so the standard
  /// library's algorithms that write elements back one position at a time (sorting with a
  /// comparator, sorting a slice) leave every id with its element. Otherwise the element at
  /// `position` is replaced.
  ///
  /// ```swift
  /// var todos: IdentifiedArrayOf<Todo> = [milk, eggs, tea]
  /// todos[0] = tea          // tea moves to 0, milk takes tea's old place
  /// todos.ids               // [3, 2, 1]
  /// ```
  ///
  /// Mutating an element in place (`todos[0].title = "Oat milk"`) must keep its id.
  @inlinable
  public subscript(position: Int) -> Element {
    get { _elements[position] }
    set {
      let newID = _id(newValue)
      let oldID = _id(_elements[position])
      if newID != oldID {
        if let other = _positions[newID] {
          swapAt(position, other)
        } else {
          _positions[oldID] = nil
          _positions[newID] = position
          _structureChanged(.removed(oldID))
          _structureChanged(.added(newID))
        }
      }
      _elements[position] = newValue
      _elementModified(newID)
    }
    _modify {
      let id = _id(_elements[position])
      yield &_elements[position]
      precondition(
        _id(_elements[position]) == id,
        "IdentifiedArray: an element's id cannot change in place; assign a whole element instead.")
      _elementModified(id)
    }
  }

  /// Exchanges the elements at `i` and `j`; each keeps its id, which moves with it.
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    _elements.swapAt(i, j)
    _positions[_id(_elements[i])] = i
    _positions[_id(_elements[j])] = j
    _structureChanged(.reordered)
  }

  /// Reorders the elements so that those matching `belongsInSecondPartition` come last, and
  /// returns the position of the first of them. Ids move with their elements.
  public mutating func partition(
    by belongsInSecondPartition: (Element) throws -> Bool
  ) rethrows -> Int {
    let pivot = try _elements.partition(by: belongsInSecondPartition)
    _reindex(from: 0)
    _structureChanged(.reordered)
    return pivot
  }

  /// Reverses the order of the elements; ids move with their elements.
  public mutating func reverse() {
    _elements.reverse()
    _reindex(from: 0)
    _structureChanged(.reordered)
  }

  /// Shuffles the elements with `generator`; ids move with their elements.
  public mutating func shuffle<G: RandomNumberGenerator>(using generator: inout G) {
    _elements.shuffle(using: &generator)
    _reindex(from: 0)
    _structureChanged(.reordered)
  }

  /// Shuffles the elements; ids move with their elements.
  public mutating func shuffle() {
    var generator = SystemRandomNumberGenerator()
    shuffle(using: &generator)
  }

  /// Never hands out the elements' storage: writing through it could change an id behind the
  /// array's back. Algorithms fall back to ``swapAt(_:_:)`` and the subscript.
  public mutating func withContiguousMutableStorageIfAvailable<R>(
    _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
  ) rethrows -> R? { nil }
}

extension IdentifiedArray where Element: Comparable {
  /// Sorts the elements in increasing order; ids move with their elements.
  public mutating func sort() { sort(by: <) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Equal when the same elements are in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs._elements == rhs._elements }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements, in order.
  public func hash(into hasher: inout Hasher) { hasher.combine(_elements) }
}

/// `@unchecked` because of `_id`: it is either a caller's `@Sendable` function or `{ $0.id }`,
/// which captures nothing; the storage is value-typed.
extension IdentifiedArray: @unchecked Sendable where Element: Sendable {}

extension IdentifiedArray: CustomStringConvertible, CustomReflectable {
  /// The elements, printed as an array.
  public var description: String { _elements.description }

  /// Reflects as its elements, so dumps and diffs show rows, not storage.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: _elements, displayStyle: .collection)
  }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(_elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, Element.ID == ID {
  /// Decodes a plain array; two elements with one id is a `DecodingError.dataCorrupted`.
  public init(from decoder: any Decoder) throws {
    let elements = try decoder.singleValueContainer().decode([Element].self)
    var seen = Set<ID>()
    for element in elements where !seen.insert(element.id).inserted {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "IdentifiedArray: duplicate id \(element.id) in the decoded array."))
    }
    self.init(uniqueElements: elements)
  }
}
