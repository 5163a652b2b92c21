/// How a store reads its state from the root's: scoped stores hold no state of their own.
@usableFromInline
@MainActor
class _Projection<Value> {
  @usableFromInline init() {}

  @usableFromInline func get() -> Value { fatalError("_Projection is abstract") }

  /// A projection one key path further down.
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
  let offset: Int?

  @usableFromInline init(box: _StateBox<Root>, keyPath: KeyPath<Root, Value>) {
    self.box = box
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  @usableFromInline override func get() -> Value {
    guard let offset else { return box.state[keyPath: keyPath] }
    return Self.read(&box.state, at: offset)
  }

  /// Reads the value at `offset` in `root`. Nonisolated, so that the closure it hands to
  /// `withUnsafePointer` is too: a main-actor closure there is checked to run on the main
  /// actor each time it is called (a fifth of the cost of a read through scoped stores).
  private nonisolated static func read(_ root: inout Root, at offset: Int) -> Value {
    withUnsafePointer(to: &root) { root in
      // The offset of a stored property: its memory is bound to `Value` while `root` is.
      (UnsafeRawPointer(root) + offset).assumingMemoryBound(to: Value.self).pointee
    }
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
}

/// State that may disappear (optional child, collection element): reads the current value,
/// or the last value it had once it is gone, so a store outliving its child never crashes.
/// It refreshes that value at the end of every batch (it subscribes to the core).
@MainActor
final class _LastValueProjection<Value>: _Projection<Value>, _Subscriber {
  let fetch: @MainActor () -> Value?
  var last: Value

  init(initial: Value, fetch: @escaping @MainActor () -> Value?) {
    self.last = initial
    self.fetch = fetch
  }

  override func get() -> Value {
    if let value = fetch() { last = value }
    return last
  }

  func stateDidChange() {
    if let value = fetch() { last = value }
  }
}
