import Synchronization

/// A key path to a presentation, `\.$child` as a rule: the projected value of the
/// `@PresentationState` wrapper, a computed property, so the key path cannot give the offset
/// of the stored wrapper (`_child`) it reads and writes. Through the key path, every read and
/// write goes through the runtime's key path interpreter and metadata caches: without this
/// type, a present-and-dismiss cycle (benchmark W7) takes two and a half times as long.
///
/// At its first use the path looks for that offset on a copy of the state: it writes a marker
/// presentation through the key path, finds the one place in the copy's memory that holds it,
/// writes a second marker there, and checks that the key path reads it back. From then on it
/// reads and writes the wrapper in place. A key path it cannot pin down (a computed property
/// that stores its value elsewhere, or anywhere but once) stays a key path.
@usableFromInline
struct _PresentationPath<Root, Child> {
  @usableFromInline let keyPath: WritableKeyPath<Root, PresentationState<Child>>
  @usableFromInline let resolved: _ResolvedOffset

  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root, PresentationState<Child>>) {
    self.keyPath = keyPath
    self.resolved = _ResolvedOffset(MemoryLayout<Root>.offset(of: keyPath))
  }

  /// The wrapper's offset in `root`, or nil when only the key path reaches it.
  @inlinable
  func offset(in root: inout Root) -> Int? {
    let known = resolved.value.load(ordering: .relaxed)
    if known >= 0 { return known }
    if known == _ResolvedOffset.none { return nil }
    return resolve(in: root)
  }

  @usableFromInline
  func resolve(in root: Root) -> Int? {
    let found = Self.probe(root, keyPath)
    resolved.value.store(found ?? _ResolvedOffset.none, ordering: .relaxed)
    return found
  }

  /// Mutates the presentation in place.
  @inlinable @inline(__always)
  func modify<Result>(
    _ root: inout Root, _ body: (inout PresentationState<Child>) -> Result
  ) -> Result {
    guard let offset = offset(in: &root) else { return body(&root[keyPath: keyPath]) }
    return _modifyStored(at: offset, in: &root, body)
  }

  /// Reads the presentation without copying it.
  @inlinable
  func read<Result>(_ root: inout Root, _ body: (PresentationState<Child>) -> Result) -> Result {
    guard let offset = offset(in: &root) else { return body(root[keyPath: keyPath]) }
    return _readStored(at: offset, in: &root, body)
  }

  /// The offset of the one place in `root` the key path reads and writes, if there is one.
  static func probe(
    _ root: Root, _ keyPath: WritableKeyPath<Root, PresentationState<Child>>
  ) -> Int? {
    let word = MemoryLayout<UInt>.size
    // A presentation is one optional reference: its bits are the box's address.
    guard MemoryLayout<PresentationState<Child>>.size == word else { return nil }
    var copy = root
    let marker = _PresentationBox<Child>()
    copy[keyPath: keyPath] = PresentationState(_box: marker)
    guard copy[keyPath: keyPath]._box === marker else { return nil }
    let bits = UInt(bitPattern: Unmanaged.passUnretained(marker).toOpaque())
    let places = withUnsafeBytes(of: &copy) { bytes in
      stride(from: 0, through: bytes.count - word, by: MemoryLayout<UInt>.alignment).filter {
        bytes.loadUnaligned(fromByteOffset: $0, as: UInt.self) == bits
      }
    }
    guard places.count == 1, let offset = places.first else { return nil }
    let second = _PresentationBox<Child>()
    // Holds the marker, so it is a presentation: assignment releases it and keeps `second`.
    _modifyStored(at: offset, in: &copy) { (presentation: inout PresentationState<Child>) in
      presentation = PresentationState(_box: second)
    }
    guard copy[keyPath: keyPath]._box === second else { return nil }
    return offset
  }
}

/// The offset a `_PresentationPath` found, shared by every copy of the reducer that made it.
@usableFromInline
final class _ResolvedOffset: Sendable {
  @usableFromInline static let unknown = -2
  @usableFromInline static let none = -1
  /// `unknown` until the first use, then `none` or the offset.
  @usableFromInline let value: Atomic<Int>

  init(_ offset: Int?) { value = Atomic(offset ?? Self.unknown) }
}
