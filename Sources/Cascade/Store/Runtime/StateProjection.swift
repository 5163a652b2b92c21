/// How a store reads its state from the root's: scoped stores hold no state of their own.
@usableFromInline
@MainActor
class _Projection<Value> {
  /// The value's fixed address, when it has one (a chain of stored properties from the root's
  /// storage): the store reads it there directly. Valid while the projection lives.
  @usableFromInline final let address: UnsafeMutableRawPointer?

  /// Whether the value is read again after a send through this store (`refresh()`).
  @usableFromInline final let refreshesOnSend: Bool

  @usableFromInline init(address: UnsafeMutableRawPointer? = nil, refreshesOnSend: Bool = false) {
    self.address = address
    self.refreshesOnSend = refreshesOnSend
  }

  /// Reads the value again, for a value that keeps what it last read (see `refreshesOnSend`).
  @usableFromInline func refresh() {}

  /// Someone listens to the store this projection reads for (a subscriber, or the rows of its
  /// own collections): a row's store tells its collection's group (`ElementObservation.swift`).
  func startListening() {}

  @usableFromInline func get() -> Value { fatalError("_Projection is abstract") }

  /// Changes the value in the root's state with `body`, outside any action, and says whether
  /// it could (a read-only key path cannot be written through). Only for a change that is not
  /// the state's content: a row store's group turning on its collection's log of element
  /// changes (`ElementObservation.swift`).
  func update(_ body: (inout Value) -> Void) -> Bool { false }

  /// A projection one key path further down.
  @usableFromInline
  func appending<Child>(_ keyPath: KeyPath<Value, Child>) -> _Projection<Child> {
    _MappedProjection(base: self, keyPath: keyPath)
  }
}

/// Reads root state through one key path composed from the root, at a fixed memory offset
/// when the path is made of stored properties: a pointer read however deep the scoping goes.
@usableFromInline
@MainActor
final class _PathProjection<Root, Value>: _Projection<Value> {
  let box: _StateBox<Root>
  let keyPath: KeyPath<Root, Value>

  @usableFromInline init(box: _StateBox<Root>, keyPath: KeyPath<Root, Value>) {
    self.box = box
    self.keyPath = keyPath
    let offset = MemoryLayout<Root>.offset(of: keyPath)
    // The root's storage never moves while the box lives, and this projection keeps it alive.
    super.init(address: offset.map { UnsafeMutableRawPointer(box.storage) + $0 })
  }

  @usableFromInline override func get() -> Value {
    // The offset of a stored property: its memory is bound to `Value` while the root's is.
    guard let address else { return box.state[keyPath: keyPath] }
    return address.assumingMemoryBound(to: Value.self).pointee
  }

  override func update(_ body: (inout Value) -> Void) -> Bool {
    if let address {
      body(&address.assumingMemoryBound(to: Value.self).pointee)
      return true
    }
    guard let writable = keyPath as? WritableKeyPath<Root, Value> else { return false }
    body(&box.state[keyPath: writable])
    return true
  }

  override func appending<Child>(_ keyPath: KeyPath<Value, Child>) -> _Projection<Child> {
    _PathProjection<Root, Child>(box: box, keyPath: self.keyPath.appending(path: keyPath))
  }
}

/// Reads through another projection, then a key path.
@MainActor
final class _MappedProjection<Base, Value>: _Projection<Value> {
  let base: _Projection<Base>
  let keyPath: KeyPath<Base, Value>

  init(base: _Projection<Base>, keyPath: KeyPath<Base, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  override func get() -> Value { base.get()[keyPath: keyPath] }

  override func update(_ body: (inout Value) -> Void) -> Bool {
    guard let writable = keyPath as? WritableKeyPath<Base, Value> else { return false }
    return base.update { body(&$0[keyPath: writable]) }
  }
}

/// State that may disappear (optional child, collection element): reads the current value,
/// or the last value it had once it is gone, so a store outliving its child never crashes.
/// It keeps the value it last read: at every read, and after every send through its own store
/// (so a row store that sent its last action reads the row as that action left it). As in
/// TCA, it is not told of other changes: a store for each of 10,000 rows costs nothing per
/// send of another row, and a store ten optionals deep reads through its parents once.
@MainActor
final class _LastValueProjection<Value>: _Projection<Value> {
  let fetch: @MainActor () -> Value?
  var last: Value
  /// For a row's store: tells its collection's group that someone listens to the row, when it
  /// does not know yet. A read of the row's state is how an observer starts listening, so the
  /// check is made here, on a row store's reads only, never on other stores' reads.
  var listening: _RowListening?
  /// Changes the value where its parent holds it (see ``_Projection/update(_:)``), or `nil`
  /// when it cannot.
  let write: (@MainActor ((inout Value) -> Void) -> Bool)?

  init(
    initial: Value, fetch: @escaping @MainActor () -> Value?,
    write: (@MainActor ((inout Value) -> Void) -> Bool)? = nil
  ) {
    self.last = initial
    self.fetch = fetch
    self.write = write
    super.init(refreshesOnSend: true)
  }

  override func update(_ body: (inout Value) -> Void) -> Bool {
    guard let write else { return false }
    return write(body)
  }

  override func get() -> Value {
    startListening()
    if let value = fetch() { last = value }
    return last
  }

  override func startListening() {
    if let listening, !listening.isKnown { listening.start() }
  }

  override func refresh() {
    if let value = fetch() { last = value }
  }
}
