@_spi(Reflection) import Swift

/// The shared roots a value holds, found by walking it with `Mirror`: for test stores, never
/// on the per-action path. Classes are not entered. Skips the walk while no shared root was
/// ever created, and skips every part of the value whose type cannot hold a `Shared` (see
/// `_mayHoldShared`), so a state of 10,000 plain rows beside one shared value costs a walk of
/// its top-level fields, not of its rows.
package func _sharedRoots(in value: Any) -> [any _AnySharedRoot] {
  guard _sharedRootCount.withLock({ $0 }) > 0 else { return [] }
  var found: [ObjectIdentifier: any _AnySharedRoot] = [:]
  func walk(_ value: Any, depth: Int) {
    if let shared = value as? any _SharedValue {
      let root = shared._root
      found[ObjectIdentifier(root)] = root
      return
    }
    guard depth < 64, _mayHoldShared(type(of: value)) else { return }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .class { return }
    for child in mirror.children { walk(child.value, depth: depth + 1) }
  }
  walk(value, depth: 0)
  return Array(found.values)
}

/// Whether a value of `type` can hold a `Shared` anywhere a `Mirror` walk reaches, decided from
/// the type's stored properties (their declared types, so the answer holds for every value of
/// it) and remembered per type.
///
/// - A class, a function or a metatype holds none (a walk does not enter classes).
/// - A struct or a tuple holds one if one of its stored properties' types can.
/// - A collection Cascade knows (`Array`, `Dictionary`, `Set`, `Optional`, `IdentifiedArray`,
///   `StackState`, `PresentationState`, ...) holds one if its element type can.
/// - An enum holds one if one of its cases' payload types can.
/// - Anything the type alone cannot settle (an existential such as `Any`, a type with a custom
///   mirror of its own) is assumed to, and the walk looks at the value itself.
package func _mayHoldShared(_ type: Any.Type) -> Bool {
  if let known = _sharedTypeCache.withLock({ $0.known[ObjectIdentifier(type)] }) { return known }
  var inProgress: Set<ObjectIdentifier> = []
  let answer = _decideMayHoldShared(type, inProgress: &inProgress)
  _sharedTypeCache.withLock { $0.known[ObjectIdentifier(type)] = answer }
  return answer
}

private struct _SharedTypeCache {
  var known: [ObjectIdentifier: Bool] = [:]
}
private let _sharedTypeCache = Guarded(_SharedTypeCache())

private func _decideMayHoldShared(
  _ type: Any.Type, inProgress: inout Set<ObjectIdentifier>
) -> Bool {
  let id = ObjectIdentifier(type)
  if let known = _sharedTypeCache.withLock({ $0.known[id] }) { return known }
  // A type met again while deciding it adds nothing its other properties do not.
  guard inProgress.insert(id).inserted else { return false }
  defer { inProgress.remove(id) }
  if type is any _SharedValue.Type { return true }
  if let container = type as? any _SharedScanContainer.Type {
    return container._elementTypes.contains { _decideMayHoldShared($0, inProgress: &inProgress) }
  }
  // A custom mirror may show what the stored properties hide (a box's contents); the
  // standard library's and Foundation's show their own values.
  if type is any CustomReflectable.Type {
    let name = String(reflecting: type)
    if !name.hasPrefix("Swift.") && !name.hasPrefix("Foundation.") { return true }
  }
  if type is AnyObject.Type { return false }
  // An enum holds one if one of its cases' payloads can, as the field descriptor names their
  // types (a payload whose type the runtime cannot name, reflection cannot read either).
  if let metadata = _EnumMetadata(type) {
    return _EnumCases.of(metadata).contains { enumCase in
      enumCase.payloadType.map { _decideMayHoldShared($0, inProgress: &inProgress) } ?? false
    }
  }
  // The metadata's kind (the runtime's ABI): only a struct's or a tuple's stored properties
  // can be listed; an existential can hold anything: for those the walk reads the value.
  switch unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self) {
  case 0x200, 0x301: break  // struct, tuple
  case 0x300, 0x302, 0x304, 0x306: return false  // builtin, function, metatypes
  default: return true
  }
  var fields: [(type: Any.Type, kind: _MetadataKind)] = []
  let read = _forEachField(of: type, options: []) { _, _, fieldType, kind in
    fields.append((fieldType, kind))
    return true
  }
  guard read else { return true }
  return fields.contains { field in
    switch field.kind {
    case .class, .foreignClass, .objcClassWrapper, .metatype, .existentialMetatype: false
    case .existential: true
    default: _decideMayHoldShared(field.type, inProgress: &inProgress)
    }
  }
}

/// A collection whose elements a `Mirror` walk reaches, by its element types: the type-level
/// view of what its custom mirror or its storage shows.
package protocol _SharedScanContainer {
  static var _elementTypes: [Any.Type] { get }
}

extension Array: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Element.self] }
}
extension ContiguousArray: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Element.self] }
}
extension ArraySlice: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Element.self] }
}
extension Set: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Element.self] }
}
extension Dictionary: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Key.self, Value.self] }
}
extension Optional: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Wrapped.self] }
}
extension IdentifiedArray: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Element.self] }
}
extension StackState: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [Element.self] }
}
extension PresentationState: _SharedScanContainer {
  package static var _elementTypes: [Any.Type] { [State.self] }
}
