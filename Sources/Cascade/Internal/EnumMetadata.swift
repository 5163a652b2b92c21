// Reading an enum's case tag and payload from its runtime metadata.
//
// This is what lets `CasePath(Action.child)` extract without macros and without `Mirror` on the
// per-action path. Every enum's value witness table carries three extra entries (`getEnumTag`,
// `destructiveProjectEnumData`, `destructiveInjectEnumTag`); the type's field descriptor says
// which cases are `indirect`. Both layouts are part of Swift's stable ABI.

@usableFromInline
typealias _GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
@usableFromInline
typealias _ProjectEnumData = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

/// A view of one enum type's runtime metadata.
///
/// `@unchecked Sendable`: it holds only pointers into the type's runtime metadata, which is
/// immutable and lives for the whole process.
@usableFromInline
struct _EnumMetadata: @unchecked Sendable {
  @usableFromInline let metadata: UnsafeRawPointer
  @usableFromInline let getTag: _GetEnumTag
  @usableFromInline let project: _ProjectEnumData

  private static let enumKind = 0x201
  private static let optionalKind = 0x202
  private static let hasEnumWitnesses: UInt32 = 0x0020_0000
  private static let word = MemoryLayout<UnsafeRawPointer>.size

  /// Returns `nil` when `type` is not an enum.
  @usableFromInline
  init?(_ type: Any.Type) {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let kind = metadata.load(as: Int.self)
    guard kind == Self.enumKind || kind == Self.optionalKind else { return nil }
    let witnesses = metadata.load(fromByteOffset: -Self.word, as: UnsafeRawPointer.self)
    // The regular value witnesses are 8 function pointers, then size, stride, flags and the
    // extra-inhabitant count; the enum witnesses follow.
    let flagsOffset = 10 * Self.word
    let flags = witnesses.load(fromByteOffset: flagsOffset, as: UInt32.self)
    guard flags & Self.hasEnumWitnesses != 0 else { return nil }
    let enumWitnesses = flagsOffset + 8
    self.metadata = metadata
    self.getTag = unsafeBitCast(
      witnesses.load(fromByteOffset: enumWitnesses, as: UnsafeRawPointer.self),
      to: _GetEnumTag.self)
    self.project = unsafeBitCast(
      witnesses.load(fromByteOffset: enumWitnesses + Self.word, as: UnsafeRawPointer.self),
      to: _ProjectEnumData.self)
  }

  /// The case tag of `value`: payload cases first, in declaration order, then empty cases.
  @inlinable
  func tag<Root>(of value: borrowing Root) -> UInt32 {
    withUnsafePointer(to: value) { getTag(UnsafeRawPointer($0), metadata) }
  }

  /// Copies the payload out of `root`, whose case is known to carry a `Value`.
  @inlinable
  func payload<Root, Value>(of root: Root, indirect: Bool, as _: Value.Type) -> Value {
    withUnsafeTemporaryAllocation(of: Root.self, capacity: 1) { buffer in
      let pointer = buffer.baseAddress!
      pointer.initialize(to: root)
      let raw = UnsafeMutableRawPointer(pointer)
      project(raw, metadata)
      // After projection the memory holds the payload alone; moving it out leaves the
      // temporary uninitialized, which is what the allocation expects at its end.
      guard indirect else { return raw.assumingMemoryBound(to: Value.self).move() }
      let box = raw.assumingMemoryBound(to: AnyObject.self).move()
      return withExtendedLifetime(box) {
        let start = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
        let header = 2 * MemoryLayout<UnsafeRawPointer>.size
        let alignment = MemoryLayout<Value>.alignment
        let offset = (header + alignment - 1) & ~(alignment - 1)
        return (start + offset).assumingMemoryBound(to: Value.self).pointee
      }
    }
  }

  /// Whether the case with `tag` is declared `indirect`, read from the field descriptor.
  @usableFromInline
  func isIndirect(tag: UInt32) -> Bool {
    let descriptor = metadata.load(fromByteOffset: Self.word, as: UnsafeRawPointer.self)
    guard let fields = Self.relative(descriptor + 16) else { return false }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    var payloadCases: [UInt32] = []
    var emptyCases: [UInt32] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      let flags = record.load(as: UInt32.self)
      if Self.relative(record + 4) != nil {
        payloadCases.append(flags)
      } else {
        emptyCases.append(flags)
      }
    }
    let ordered = payloadCases + emptyCases
    guard Int(tag) < ordered.count else { return false }
    return ordered[Int(tag)] & 0x1 != 0
  }

  private static func relative(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = pointer.load(as: Int32.self)
    return offset == 0 ? nil : pointer + Int(offset)
  }
}
