// Reading an enum's case tag and payload from its runtime metadata.
//
// This is what lets `CasePath(Action.child)` extract without macros and without `Mirror` on the
// per-action path. Every enum's value witness table carries three extra entries (`getEnumTag`,
// `destructiveProjectEnumData`, `destructiveInjectEnumTag`); the type's field descriptor says
// which cases are `indirect`. Both layouts are part of Swift's stable ABI.
//
// Calling a witness through a `@convention(c)` pointer matches the witnesses' calling convention
// on the platforms Cascade is tested on, not everywhere: on WebAssembly a Swift function takes
// extra parameters, so such a call traps, and where pointer authentication is on (arm64e) a raw
// witness pointer must be authenticated first. There the portable reader below is compiled
// instead (`-D CASCADE_PORTABLE` compiles it anywhere; CI runs the whole suite with it): it asks
// the Swift runtime, which calls the witnesses the right way, for the name of a value's case
// (one runtime call per tag read) and for a payload (a reflection call and an allocation),
// except for a case whose payload lies unchanged at the start of the enum's memory, read in
// place as below. The Performance article says what it costs.

#if CASCADE_PORTABLE || arch(wasm32) || _ptrauth(_arm64e)
  /// The portable reader: the runtime's own entry points, no witness called from here. Their
  /// Swift signatures are the ones the standard library declares for them.
  @usableFromInline @_silgen_name("swift_EnumCaseName")
  func _runtimeEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

  @usableFromInline
  typealias _ChildNameFree = @convention(c) (UnsafePointer<CChar>?) -> Void

  @usableFromInline @_silgen_name("swift_reflectionMirror_subscript")
  func _runtimeChild<T>(
    of value: T, type: Any.Type, index: Int,
    outName: UnsafeMutablePointer<UnsafePointer<CChar>?>,
    outFreeFunc: UnsafeMutablePointer<_ChildNameFree?>
  ) -> Any
#else
  @usableFromInline
  typealias _GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  @usableFromInline
  typealias _ProjectEnumData = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
#endif

/// A view of one enum type's runtime metadata.
///
/// `@unchecked Sendable`: it holds only pointers into the type's runtime metadata, which is
/// immutable and lives for the whole process.
@usableFromInline
struct _EnumMetadata: @unchecked Sendable {
  private static let enumKind = 0x201
  private static let optionalKind = 0x202
  private static let hasEnumWitnesses: UInt32 = 0x0020_0000
  private static let word = MemoryLayout<UnsafeRawPointer>.size

  #if CASCADE_PORTABLE || arch(wasm32) || _ptrauth(_arm64e)
    @usableFromInline let metadata: UnsafeRawPointer
    /// The name of each case, in tag order: the runtime names a value's case, this finds its tag.
    @usableFromInline let names: _EnumCaseNames

    /// Returns `nil` when `type` is not an enum.
    @usableFromInline
    init?(_ type: Any.Type) {
      let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
      let kind = metadata.load(as: Int.self)
      guard kind == Self.enumKind || kind == Self.optionalKind else { return nil }
      self.metadata = metadata
      self.names = _EnumCaseNames.of(metadata)
    }

    /// The case tag of `value`, from the name of its case: payload cases first, in declaration
    /// order, then empty cases.
    @inlinable
    func tag<Root>(of value: borrowing Root) -> UInt32 {
      names.tag(of: copy value)
    }

    /// Copies the payload out of `root`, whose case is known to carry a `Value`: the runtime
    /// projects a copy (`indirect` cases included) into a box.
    @inlinable
    func payload<Root, Value>(of root: Root, indirect _: Bool, as _: Value.Type) -> Value {
      _reflectedPayload(of: root, as: Value.self)
    }

    /// Whether the payload of `root` lies unchanged at the start of its memory: the bytes there
    /// are the payload's own. Tag bits are the same for every value of a case, so what one value
    /// shows holds for all of them; an `indirect` case holds a box's address there, never its
    /// payload. Asked once per case path and case, on the slow path.
    @usableFromInline
    func projectionKeepsPayload<Root, Value>(of root: Root, as _: Value.Type) -> Bool {
      let size = MemoryLayout<Value>.size
      guard size <= MemoryLayout<Root>.size else { return false }
      let payload = _reflectedPayload(of: root, as: Value.self)
      return withUnsafeBytes(of: root) { enumBytes in
        withUnsafeBytes(of: payload) { payloadBytes in
          enumBytes.prefix(size).elementsEqual(payloadBytes.prefix(size))
        }
      }
    }
  #else
    @usableFromInline let metadata: UnsafeRawPointer
    @usableFromInline let getTag: _GetEnumTag
    @usableFromInline let project: _ProjectEnumData

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
          return (start + _boxPayloadOffset(Value.self)).assumingMemoryBound(to: Value.self)
            .pointee
        }
      }
    }

    /// Whether projecting the payload out of `root` leaves its bytes as they were: true when the
    /// enum keeps no tag bits in this case's payload (a single-payload enum, an enum whose tag
    /// lives in a byte after the payloads, or the case whose tag is zero in the payloads' spare
    /// bits). Projection clears the same tag bits from every value of a case, so what one value
    /// shows holds for all of them. Asked once per case path and case, on the slow path.
    @usableFromInline
    func projectionKeepsPayload<Root, Value>(of root: Root, as _: Value.Type) -> Bool {
      let size = MemoryLayout<Value>.size
      precondition(size <= MemoryLayout<Root>.size)
      return withUnsafeTemporaryAllocation(of: Root.self, capacity: 2) { buffer in
        let original = buffer.baseAddress!
        let projected = original + 1
        original.initialize(to: root)
        projected.initialize(to: root)
        let projectedRaw = UnsafeMutableRawPointer(projected)
        project(projectedRaw, metadata)
        let before = UnsafeRawBufferPointer(start: UnsafeRawPointer(original), count: size)
        let after = UnsafeRawBufferPointer(start: UnsafeRawPointer(projectedRaw), count: size)
        let same = before.elementsEqual(after)
        original.deinitialize(count: 1)
        projectedRaw.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        return same
      }
    }
  #endif

  /// Reads the payload of an `indirect` case in its box, the box's address read where it lies,
  /// at the start of the enum's memory: for a case whose projection was found to leave that
  /// address as it was (``projectionKeepsBox(of:)``). Neither the enum nor the box is copied.
  @inlinable
  static func payloadInPlaceBox<Root, Value>(of root: Root, as _: Value.Type) -> Value {
    withUnsafePointer(to: root) { pointer in
      let box = UnsafeRawPointer(pointer).load(as: UnsafeRawPointer.self)
      return (box + _boxPayloadOffset(Value.self)).assumingMemoryBound(to: Value.self).pointee
    }
  }

  /// Whether the first word of `root`, of an `indirect` case, is its box's address unchanged
  /// (no tag bits kept in it): what projection leaves there, compared with what was there.
  /// Asked once per case path and case, on the slow path.
  @usableFromInline
  func projectionKeepsBox<Root>(of root: Root) -> Bool {
    #if CASCADE_PORTABLE || arch(wasm32) || _ptrauth(_arm64e)
      return false
    #else
      guard MemoryLayout<Root>.size >= MemoryLayout<UnsafeRawPointer>.size else { return false }
      return projectionKeepsPayload(of: root, as: AnyObject.self)
    #endif
  }

  /// Reads the payload of `root` where it lies, at the start of the enum's memory: for a case
  /// whose projection was found to change nothing (``projectionKeepsPayload(of:as:)``).
  @inlinable
  static func payloadInPlace<Root, Value>(of root: Root, as _: Value.Type) -> Value {
    withUnsafePointer(to: root) { UnsafeRawPointer($0).load(as: Value.self) }
  }

  /// What the field descriptor says about each case, in tag order: the payload's type (`nil`
  /// for a case without one, or one whose type the runtime cannot name) and whether the case
  /// is `indirect`. Read once per enum and cached (see ``_EnumCases``); never per action.
  @usableFromInline
  func cases() -> [_EnumCase] { Self.cases(of: metadata) }

  static func cases(of metadata: UnsafeRawPointer) -> [_EnumCase] {
    let descriptor = Self.authenticated(
      metadata.load(fromByteOffset: Self.word, as: UnsafeRawPointer.self))
    guard let fields = Self.relative(descriptor + 16) else { return [] }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    // Generic arguments follow the kind and the descriptor in an enum's metadata; the runtime
    // reads them only when the enum (or a type it is nested in) is generic.
    let genericArguments = metadata + 2 * Self.word
    var payloadCases: [_EnumCase] = []
    var emptyCases: [_EnumCase] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      let flags = record.load(as: UInt32.self)
      if let name = Self.relative(record + 4) {
        // The runtime's lookup by mangled name: what reflection itself uses to read a field's
        // type.
        let type = _getTypeByMangledNameInContext(
          name.assumingMemoryBound(to: UInt8.self), UInt(Self.mangledNameLength(name)),
          genericContext: descriptor, genericArguments: genericArguments)
        let enumCase = _EnumCase(
          payloadType: type, isIndirect: flags & 0x1 != 0,
          isGenericParameter: Self.namesGenericParameter(name), name: Self.relative(record + 8))
        // The compiler lays out a case whose payload is known to take no space (Void, an empty
        // struct, a one-case enum) as a case without a payload, and numbers it among those.
        if !enumCase.isIndirect, !enumCase.isGenericParameter, let type, Self.size(of: type) == 0 {
          emptyCases.append(enumCase)
        } else {
          payloadCases.append(enumCase)
        }
      } else {
        emptyCases.append(
          _EnumCase(
            payloadType: nil, isIndirect: false, isGenericParameter: false,
            name: Self.relative(record + 8)))
      }
    }
    return payloadCases + emptyCases
  }

  /// The length of a mangled name in a field record: it ends at a zero byte, and may embed
  /// symbolic references (a control byte, then a 4-byte relative offset or a whole pointer)
  /// whose bytes can be zero.
  private static func mangledNameLength(_ name: UnsafeRawPointer) -> Int {
    var length = 0
    while true {
      let byte = name.load(fromByteOffset: length, as: UInt8.self)
      switch byte {
      case 0: return length
      case 0x01...0x17: length += 1 + 4
      case 0x18...0x1F: length += 1 + word
      default: length += 1
      }
    }
  }

  /// The size of a value of `type`.
  private static func size(of type: Any.Type) -> Int {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return _openExistential(type, do: size)
  }

  /// The type descriptor's address. Where pointer authentication is on, the metadata keeps it
  /// signed in the pointer's upper bits (not built in CI: no arm64e toolchain here): they are
  /// cleared, leaving the 47-bit address every Apple arm64e system uses.
  private static func authenticated(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer {
    #if _ptrauth(_arm64e)
      UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: pointer)) & (1 << 47 - 1))!
    #else
      pointer
    #endif
  }

  /// Whether a mangled name is one of the enum's generic parameters alone (`x` for the first,
  /// `q_`, `q0_`, `qd__`... for the others): such a payload is stored the general way.
  private static func namesGenericParameter(_ name: UnsafeRawPointer) -> Bool {
    let first = name.load(as: UInt8.self)
    if first == UInt8(ascii: "x") { return name.load(fromByteOffset: 1, as: UInt8.self) == 0 }
    guard first == UInt8(ascii: "q") else { return false }
    var offset = 1
    while true {
      let byte = name.load(fromByteOffset: offset, as: UInt8.self)
      switch byte {
      case 0: return offset > 1
      case UInt8(ascii: "_"), UInt8(ascii: "d"), UInt8(ascii: "0")...UInt8(ascii: "9"): offset += 1
      default: return false
      }
    }
  }

  private static func relative(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = pointer.load(as: Int32.self)
    return offset == 0 ? nil : pointer + Int(offset)
  }
}

/// The cases of each enum a case path has met, read from its metadata once per process.
@usableFromInline
enum _EnumCases {
  private static let known = Guarded<[ObjectIdentifier: [_EnumCase]]>([:])

  @usableFromInline
  static func of(_ metadata: _EnumMetadata) -> [_EnumCase] {
    let key = ObjectIdentifier(unsafeBitCast(metadata.metadata, to: Any.Type.self))
    if let cases = known.withLock({ $0[key] }) { return cases }
    let cases = metadata.cases()
    known.withLock { $0[key] = cases }
    return cases
  }
}

#if CASCADE_PORTABLE || arch(wasm32) || _ptrauth(_arm64e)
  @usableFromInline @_silgen_name("swift_reflectionMirror_count")
  func _runtimeChildCount<T>(_ value: T, type: Any.Type) -> Int

  /// The names of an enum's cases in tag order, for the portable reader: the runtime names the
  /// case of a value with a pointer into the field descriptor, the same pointer listed here.
  ///
  /// `@unchecked Sendable`: the pointers are into the type's metadata, immutable for the
  /// process.
  @usableFromInline
  final class _EnumCaseNames: @unchecked Sendable {
    @usableFromInline let names: [UnsafeRawPointer?]
    /// Whether two cases share a name (`case payload(a: Int)`, `case payload(b: Int)`): their
    /// name pointers may be the same, so the payload's type tells them apart.
    @usableFromInline let hasOverloads: Bool
    let cases: [_EnumCase]

    init(_ cases: [_EnumCase]) {
      self.cases = cases
      self.names = cases.map(\.name)
      let spelled = cases.compactMap {
        $0.name.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
      }
      self.hasOverloads = Set(spelled).count < spelled.count
    }

    private static let known = Guarded<[ObjectIdentifier: _EnumCaseNames]>([:])

    /// The names of the cases of the enum `metadata` describes, read once per process.
    static func of(_ metadata: UnsafeRawPointer) -> _EnumCaseNames {
      let key = ObjectIdentifier(unsafeBitCast(metadata, to: Any.Type.self))
      if let names = known.withLock({ $0[key] }) { return names }
      let names = _EnumCaseNames(_EnumMetadata.cases(of: metadata))
      return known.withLock { known in
        if let first = known[key] { return first }
        known[key] = names
        return names
      }
    }

    /// The tag of `value`'s case, or `UInt32.max` for none (an enum whose reflection metadata
    /// was stripped).
    @inlinable
    func tag<Root>(of value: Root) -> UInt32 {
      guard let name = _runtimeEnumCaseName(value) else { return .max }
      if hasOverloads { return overloadedTag(of: value, named: name) }
      let raw = UnsafeRawPointer(name)
      var tag = 0
      while tag < names.count {
        if names[tag] == raw { return UInt32(tag) }
        tag += 1
      }
      return .max
    }

    /// The tag of `value`'s case among cases that share its name: the one whose payload type
    /// is the payload's (none for a case without one).
    @usableFromInline
    func overloadedTag<Root>(of value: Root, named name: UnsafePointer<CChar>) -> UInt32 {
      let spelled = String(cString: name)
      let candidates = cases.indices.filter { index in
        cases[index].name.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } == spelled
      }
      guard candidates.count > 1 else { return candidates.first.map { UInt32($0) } ?? .max }
      guard _runtimeChildCount(value, type: Root.self) > 0 else {
        return candidates.first { cases[$0].payloadType == nil }.map { UInt32($0) } ?? .max
      }
      var childName: UnsafePointer<CChar>?
      var free: _ChildNameFree?
      let child = _runtimeChild(
        of: value, type: Root.self, index: 0, outName: &childName, outFreeFunc: &free)
      free?(childName)
      let payloadType = type(of: child)
      let match =
        candidates.first { cases[$0].payloadType == payloadType }
        ?? candidates.first { cases[$0].payloadType != nil }
      return match.map { UInt32($0) } ?? .max
    }
  }

  /// The payload of `root`, copied out by the runtime's reflection (a box per call): what
  /// `Mirror` reads, without its custom mirrors. `Value` is stored as the case's payload is
  /// (``_EnumCase/holds(_:)``), so the two are the same bytes.
  @usableFromInline
  func _reflectedPayload<Root, Value>(of root: Root, as _: Value.Type) -> Value {
    var name: UnsafePointer<CChar>?
    var free: _ChildNameFree?
    let child = _runtimeChild(
      of: root, type: Root.self, index: 0, outName: &name, outFreeFunc: &free)
    free?(name)
    if let value = child as? Value { return value }
    func reinterpret<Payload>(_ payload: Payload) -> Value {
      precondition(MemoryLayout<Payload>.size == MemoryLayout<Value>.size)
      return withUnsafeBytes(of: payload) { $0.baseAddress!.load(as: Value.self) }
    }
    return _openExistential(child, do: reinterpret)
  }
#endif

/// One case of an enum, as its runtime metadata describes it.
@usableFromInline
struct _EnumCase: @unchecked Sendable {  // a metatype is immutable and lives for the process
  @usableFromInline let payloadType: Any.Type?
  @usableFromInline let isIndirect: Bool
  /// Declared as one of the enum's generic parameters: stored the way generic code expects.
  @usableFromInline let isGenericParameter: Bool
  /// The case's name in the field descriptor (the portable reader tells cases apart by it).
  let name: UnsafeRawPointer?

  /// Whether this case's payload is stored exactly as a `Value` is: the same type, or a tuple
  /// that differs from it only in labels (`case element(id: Int, action: A)` holds an
  /// `(Int, A)`), or a one-element labeled tuple around it (`case select(id: Int)` holds an
  /// `Int`).
  @usableFromInline
  func holds<Value>(_: Value.Type) -> Bool {
    guard let payloadType else { return false }
    if payloadType == Value.self { return true }
    guard let payload = _TupleMetadata(payloadType) else { return false }
    if payload.count == 1 { return payload.elementType(0) == Value.self }
    guard let value = _TupleMetadata(Value.self), value.count == payload.count else {
      return false
    }
    return (0..<payload.count).allSatisfy { payload.elementType($0) == value.elementType($0) }
  }
}

/// Whether a value of `type` is stored differently in a concrete enum's payload than in generic
/// code: a function (and a tuple or optional holding one) keeps its natural calling convention in
/// the payload, while generic code expects the most general one. Copying such a payload into a
/// generic `Value` would give a function that crashes when called (`Mirror` has the same flaw),
/// so case paths built from a constructor refuse these payloads and say so.
@usableFromInline
func _storesFunctions(_ type: Any.Type) -> Bool {
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  switch metadata.load(as: Int.self) {
  case 0x302: return true  // function
  case 0x202:  // Optional: its one generic argument follows the kind and the descriptor
    let wrapped = metadata.load(
      fromByteOffset: 2 * MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
    return _storesFunctions(unsafeBitCast(wrapped, to: Any.Type.self))
  default:
    guard let tuple = _TupleMetadata(type) else { return false }
    return (0..<tuple.count).contains { _storesFunctions(tuple.elementType($0)) }
  }
}

/// A view of a tuple type's runtime metadata: its element types, labels aside.
private struct _TupleMetadata {
  let metadata: UnsafeRawPointer
  let count: Int

  init?(_ type: Any.Type) {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: Int.self) == 0x301 else { return nil }
    self.metadata = metadata
    self.count = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
  }

  /// The type of element `index`: elements are (type, offset) pairs after the kind, the count
  /// and the labels.
  func elementType(_ index: Int) -> Any.Type {
    let word = MemoryLayout<Int>.size
    let pointer = metadata.load(
      fromByteOffset: 3 * word + index * 2 * word, as: UnsafeRawPointer.self)
    return unsafeBitCast(pointer, to: Any.Type.self)
  }
}

/// Where an `indirect` case's payload starts in its box: after the object's header (its
/// metadata and its reference counts), aligned for the payload.
@inlinable
func _boxPayloadOffset<Value>(_: Value.Type) -> Int {
  let header = 2 * MemoryLayout<UnsafeRawPointer>.size
  let alignment = MemoryLayout<Value>.alignment
  return (header + alignment - 1) & ~(alignment - 1)
}
