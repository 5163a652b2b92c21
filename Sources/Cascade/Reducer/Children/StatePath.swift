/// A writable key path into state, resolved once to a fixed memory offset when the path is a
/// chain of stored struct properties (the common case), so that composition operators reach
/// child state with pointer arithmetic instead of interpreting the key path on every action.
@usableFromInline
struct _StatePath<Root, Value> {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  @usableFromInline let offset: Int?

  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// Mutates the value in place.
  @inlinable
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    guard let offset else { return body(&root[keyPath: keyPath]) }
    return _modifyStored(at: offset, in: &root, body)
  }

  /// Reads through the value without copying it.
  @inlinable
  func read<Result>(_ root: inout Root, _ body: (Value) -> Result) -> Result {
    guard let offset else { return body(root[keyPath: keyPath]) }
    return _readStored(at: offset, in: &root, body)
  }
}

/// Mutates, in place, the stored property at `offset` in `root` (an offset that
/// `MemoryLayout.offset(of:)` gave, or one proven equivalent: its memory is bound to `Value`
/// while `root`'s is).
@inlinable
func _modifyStored<Root, Value, Result>(
  at offset: Int, in root: inout Root, _ body: (inout Value) -> Result
) -> Result {
  withUnsafeMutablePointer(to: &root) { pointer in
    let value = (UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self)
    return body(&value.pointee)
  }
}

/// Reads the stored property at `offset` in `root` without copying it (see `_modifyStored`).
@inlinable
func _readStored<Root, Value, Result>(
  at offset: Int, in root: inout Root, _ body: (Value) -> Result
) -> Result {
  withUnsafePointer(to: &root) { pointer in
    body((UnsafeRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self).pointee)
  }
}
