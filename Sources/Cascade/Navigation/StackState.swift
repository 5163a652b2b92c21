/// A navigation stack as state: the screens pushed on top of a root, in order, each with a
/// ``StackElementID``.
///
/// A parent owns the stack; `forEach(\.path, action: Action.path) { Path() }` runs each screen's
/// reducer, and pushing or popping is changing this value.
///
/// ```swift
/// struct Root: Reducer {
///   struct State { var path = StackState<Path.State>() }
///   enum Action { case path(StackActionOf<Path>), showDetail(Policy) }
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in
///       if case let .showDetail(policy) = action { state.path.append(.detail(.init(policy))) }
///       return .none
///     }
///     .forEach(\.path, action: Action.path) { Path() }
///   }
/// }
/// ```
///
/// Ids are unique in a store: every stack of a store draws them from one sequence, so a screen
/// of one stack (or of a stack that replaced it) never shares an id with another screen, and
/// effects never reach the wrong one. The sequence starts at 0 for each store, so a test gets
/// the same ids every run. A stack built outside any store numbers its screens itself, from 0.
/// Finding an element by id is O(1); so is pushing and popping the top.
public struct StackState<Element> {
  @usableFromInline struct Entry {
    @usableFromInline let id: StackElementID
    @usableFromInline var element: Element

    @inlinable
    init(id: StackElementID, element: Element) {
      self.id = id
      self.element = element
    }
  }

  @usableFromInline var _entries: IdentifiedArray<StackElementID, Entry>
  @usableFromInline var _nextID: Int
  /// Which stack this is: set when a stack is made (never by a change or a copy), so that the
  /// screens of two stacks made apart, whose ids may be equal, are never taken for one another
  /// (a screen's effects run under its stack's identity and its id). Not part of equality.
  @usableFromInline let _origin: UInt64

  /// An empty stack.
  public init() {
    self._entries = IdentifiedArray(uniqueElements: [], accessor: { $0.id })
    self._nextID = 0
    self._origin = _entries._stamp
  }

  /// A stack of `elements`, bottom first.
  public init<S: Sequence>(_ elements: S) where S.Element == Element {
    self.init()
    append(contentsOf: elements)
  }

  /// The ids, bottom first.
  ///
  /// A closure, not the key path `\.id`: a key path in generic code is instantiated and
  /// interpreted per element.
  public var ids: [StackElementID] { _entries._elements.map { $0.id } }

  /// Pushes `element` on top; returns its id.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> StackElementID {
    let id = StackElementID(rawValue: _takeStackElementID(atLeast: _nextID))
    // Taken from the store's sequence (or numbered by this stack) at or above `_nextID`, so
    // above every id on the stack: `_push`'s duplicate check and its skip of the store's
    // sequence past the id would find nothing to do.
    _nextID = id.rawValue + 1
    _entries.append(Entry(id: id, element: element))
    return id
  }

  /// Pushes each of `elements`, in order.
  public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
    for element in elements { append(element) }
  }

  /// Pushes `element` with a given id (from a `.push(id:state:)` action); `false` if the id is
  /// on the stack already.
  @inlinable
  @discardableResult
  mutating func _push(_ element: Element, id: StackElementID) -> Bool {
    guard !_entries.contains(id: id) else { return false }
    _nextID = Swift.max(_nextID, id.rawValue + 1)
    _skipStackElementID(past: id.rawValue)
    _entries.append(Entry(id: id, element: element))
    return true
  }

  /// Removes and returns the top element, if any.
  @inlinable
  @discardableResult
  public mutating func popLast() -> Element? {
    isEmpty ? nil : removeLast()
  }

  /// Removes and returns the top element.
  @inlinable
  @discardableResult
  public mutating func removeLast() -> Element {
    _entries.remove(at: _entries.count - 1).element
  }

  /// Removes the top `count` elements.
  @inlinable
  public mutating func removeLast(_ count: Int) {
    precondition(count <= self.count, "StackState: cannot pop \(count) of \(self.count) screens.")
    for _ in 0..<count { _entries._remove(at: _entries.count - 1) }
  }

  /// Removes every element: back to the root.
  public mutating func removeAll() { _entries.removeAll() }

  /// Removes the element with `id` and every element above it; `false` if there is none.
  @inlinable
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let position = _entries.index(id: id) else { return false }
    removeLast(count - position)
    return true
  }

  /// Removes every element above the one with `id`, which stays on top; `false` if there is
  /// none.
  @inlinable
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let position = _entries.index(id: id) else { return false }
    removeLast(count - position - 1)
    return true
  }

  /// The element with `id`, if it is on the stack.
  ///
  /// Assigning `nil` removes that element alone; assigning an element to an id that is not on
  /// the stack pushes it with that id, which is how a test asserts a push:
  ///
  /// ```swift
  /// await store.send(.showDetail) { $0.path[id: 0] = .detail(Detail.State()) }
  /// ```
  public subscript(id id: StackElementID) -> Element? {
    get { _entries[id: id]?.element }
    set {
      guard let position = _entries.index(id: id) else {
        if let newValue { _push(newValue, id: id) }
        return
      }
      if let newValue {
        _entries._modifyElement(at: position) { $0.element = newValue }
      } else {
        _entries.remove(at: position)
      }
    }
  }

  /// The id of the element at `position`.
  public func id(at position: Int) -> StackElementID { _entries[position].id }

  /// Mutates the element with `id` in place; `nil` if it is not on the stack.
  @inlinable
  mutating func _modify<Result>(
    id: StackElementID, _ body: (inout Element) -> Result
  ) -> Result? {
    guard let position = _entries.index(id: id) else { return nil }
    return _entries._modifyElement(at: position) { body(&$0.element) }
  }

  /// Changes whenever elements are pushed or popped.
  @usableFromInline var _stamp: UInt64 { _entries._stamp }
}

extension StackState: RandomAccessCollection, MutableCollection {
  /// The position of the bottom element: always 0.
  @inlinable public var startIndex: Int { 0 }
  /// The position above the top element, which is the number of elements.
  @inlinable public var endIndex: Int { _entries._elements.count }
  /// The number of screens: O(1).
  @inlinable public var count: Int { _entries._elements.count }
  /// Whether no screen is pushed.
  @inlinable public var isEmpty: Bool { _entries._elements.isEmpty }

  /// The state of the screen with `id` when it is in the case `embed` makes, or `nil`.
  /// Changing it changes that screen (it keeps its id); setting `nil` pops that screen alone.
  ///
  /// ```swift
  /// await store.receive(\.path[id: 0].detail.loaded) {
  ///   $0.path[id: 0, case: Path.State.detail]?.isLoading = false
  /// }
  /// ```
  ///
  /// A change through it when there is no screen with `id`, or the screen is in another case,
  /// changes nothing and reports an issue at the line (in a test, a failure): an assertion
  /// about the wrong screen is a mistake, not something to skip quietly.
  public subscript<Case>(
    id id: StackElementID, case embed: @escaping @Sendable (Case) -> Element,
    fileID fileID: StaticString = #fileID, line line: UInt = #line
  ) -> Case? {
    get { self[id: id].flatMap { CasePath(embed).extract(from: $0) } }
    _modify {
      let path = CasePath(embed, fileID: fileID, line: line)
      let current = self[id: id]
      var value = current.flatMap { path.extract(from: $0) }
      let matched = value != nil
      yield &value
      guard matched else {
        let found = current.map { "is \(_caseName($0))" } ?? "is not on the stack"
        reportIssue(
          """
          path[id: \(id), case: …] changed nothing: the screen with id \(id) \(found), not in the \
          case holding a \(Case.self). Assert the screen as it is (assign path[id: \(id)]), or use \
          the constructor of the case it is in.
          """,
          fileID: fileID, line: line)
        return
      }
      self[id: id] = value.map(embed)
    }
  }

  /// The element at `position`, counted from the bottom. Assigning replaces the screen's state
  /// and keeps its id.
  public subscript(position: Int) -> Element {
    get { _entries[position].element }
    set { _entries._modifyElement(at: position) { $0.element = newValue } }
  }

  /// Exchanges the screens at `i` and `j`; each keeps its id, which moves with it (so their
  /// running effects stay with them).
  public mutating func swapAt(_ i: Int, _ j: Int) { _entries.swapAt(i, j) }

  /// Reorders the screens so those matching `belongsInSecondPartition` come last; ids move with
  /// their screens.
  public mutating func partition(
    by belongsInSecondPartition: (Element) throws -> Bool
  ) rethrows -> Int {
    try _entries.partition { try belongsInSecondPartition($0.element) }
  }

  /// Sorts the screens; ids move with their screens.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try _entries.sort { try areInIncreasingOrder($0.element, $1.element) }
  }

  /// Reverses the order of the screens; ids move with their screens.
  public mutating func reverse() { _entries.reverse() }

  /// Never hands out the screens' storage, which would separate screens from their ids.
  public mutating func withContiguousMutableStorageIfAvailable<R>(
    _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
  ) rethrows -> R? { nil }
}

extension StackState where Element: Comparable {
  /// Sorts the screens in increasing order; ids move with their screens.
  public mutating func sort() { sort(by: <) }
}

extension StackState: ExpressibleByArrayLiteral {
  /// A stack of the listed elements, bottom first.
  ///
  /// ```swift
  /// var path: StackState<Path.State> = [.detail(Detail.State())]
  /// ```
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when the same elements sit at the same ids, in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.count == rhs.count
      && zip(lhs._entries, rhs._entries).allSatisfy { $0.id == $1.id && $0.element == $1.element }
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes the ids and elements, in order.
  public func hash(into hasher: inout Hasher) {
    for entry in _entries {
      hasher.combine(entry.id)
      hasher.combine(entry.element)
    }
  }
}

/// `@unchecked` only because `IdentifiedArray`'s conformance is (its id accessor here is
/// `{ $0.id }`, which captures nothing); the storage is value-typed.
extension StackState: @unchecked Sendable where Element: Sendable {}

extension StackState: Codable where Element: Codable {
  /// Encodes the elements, bottom first; ids are given anew on decoding.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Array(self))
  }

  /// Decodes the elements, bottom first, and gives them new ids.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode([Element].self))
  }
}

extension StackState: CustomReflectable {
  /// Reflects as its elements keyed by id, so dumps and diffs show the screens.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: _entries.map { (label: "\($0.id)", value: $0.element as Any) },
      displayStyle: .dictionary)
  }
}

extension StackState: _ElementChangeLogging {
  /// Turns on the log of in-place changes to the screens (see `IdentifiedArray`'s).
  mutating func _startLoggingElementChanges() { _entries._startLoggingElementChanges() }
}
