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
    return withUnsafeMutablePointer(to: &root) { pointer in
      // The offset of a stored property: its memory is bound to `Value` while `root` is.
      let value = (UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self)
      return body(&value.pointee)
    }
  }

  /// Reads through the value without copying it.
  @inlinable
  func read<Result>(_ root: inout Root, _ body: (Value) -> Result) -> Result {
    guard let offset else { return body(root[keyPath: keyPath]) }
    return withUnsafeMutablePointer(to: &root) { pointer in
      body((UnsafeRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self).pointee)
    }
  }
}
