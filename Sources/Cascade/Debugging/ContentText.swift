import Foundation

/// The one-line text of a standard value type whose fields say nothing useful (a `UUID`
/// reflects no fields at all, a `URL` its parser's internals), or `nil` for anything else:
/// what ``stateDump(_:maxElements:)`` prints for it, so that two values that differ print
/// differently.
func contentText(_ value: Any, mirror known: Mirror? = nil) -> String? {
  // Exact types only: a cast would also bridge an `Int` to `NSNumber`, an array to `Data`.
  let valueType = type(of: value)
  if valueType == UUID.self, let uuid = value as? UUID { return "UUID(\(uuid.uuidString))" }
  if valueType == Date.self, let date = value as? Date { return "Date(\(isoText(date)))" }
  if valueType == URL.self, let url = value as? URL { return "URL(\(url.absoluteString))" }
  if valueType == Data.self, let data = value as? Data { return "Data(\(hexText(data)))" }
  if valueType == Decimal.self, let decimal = value as? Decimal { return "Decimal(\(decimal))" }
  if valueType == Duration.self, let duration = value as? Duration {
    return "Duration(\(duration))"
  }
  if valueType == Locale.self, let locale = value as? Locale {
    return "Locale(\(locale.identifier.debugDescription))"
  }
  if valueType == TimeZone.self, let timeZone = value as? TimeZone {
    return "TimeZone(\(timeZone.identifier))"
  }
  if valueType == Calendar.self, let calendar = value as? Calendar {
    return """
      Calendar(\(calendar.identifier), timeZone: \(calendar.timeZone.identifier), \
      locale: \((calendar.locale?.identifier ?? "nil").debugDescription), \
      firstWeekday: \(calendar.firstWeekday), \
      minimumDaysInFirstWeek: \(calendar.minimumDaysInFirstWeek))
      """
  }
  // Any other type's answer depends on its type alone (unless it reflects itself its own
  // way): decided once, since a `Mirror` and the casts cost more than the rest of a dump.
  let id = ObjectIdentifier(valueType)
  var kind = _contentKinds.withLock { $0[id] }
  if kind == nil {
    let decided: _ContentKind
    if valueType is NSNumber.Type {
      decided = .number
    } else {
      // A struct that shows no fields but describes itself: its description is its content.
      let mirror = known ?? Mirror(reflecting: value)
      decided =
        mirror.displayStyle == .struct && mirror.children.isEmpty
          && value is any CustomStringConvertible
        ? .description : .none
    }
    if _reflectsAlikeForEveryValue(valueType) { _contentKinds.withLock { $0[id] = decided } }
    kind = decided
  }
  switch kind {
  case .number?:
    guard let number = value as? NSNumber else { return nil }
    return "NSNumber(\(number))"
  case .description?:
    guard let convertible = value as? any CustomStringConvertible else { return nil }
    let text = convertible.description
    let name = typeDescription(valueType)
    return text.isEmpty || text == "\(name)()" ? nil : "\(name)(\(text))"
  case .none?, nil:
    return nil
  }
}

/// What ``contentText(_:mirror:)`` does with a type that is none of the standard ones it names.
enum _ContentKind: Sendable {
  case none, number, description
}

private let _contentKinds = Guarded([ObjectIdentifier: _ContentKind]())

/// Whether every value of `type` has the same `Mirror` shape (display style, and the number
/// of children of a struct, class or tuple): true unless the type makes its own mirror, as the
/// standard library's collections do (their shape is still the same for every value).
/// Foundation's are not trusted here, unlike in `_mayHoldShared`: `DateComponents`, for one,
/// shows only the components it has, so its number of children depends on the value.
func _reflectsAlikeForEveryValue(_ type: Any.Type) -> Bool {
  guard type is any CustomReflectable.Type else { return true }
  return String(reflecting: type).hasPrefix("Swift.")
}

/// `2009-02-13T23:31:30Z`, with the exact fractional digits of the time interval when there
/// are some: `2009-02-13T23:31:30.25Z`.
private func isoText(_ date: Date) -> String {
  let interval = date.timeIntervalSince1970
  let whole = interval.rounded(.down)
  let base = Date(timeIntervalSince1970: whole).formatted(.iso8601)
  guard whole != interval else { return base }
  // The shortest text that reads back as the same interval carries every digit that matters.
  let text = "\(interval)"
  guard interval > 0, !text.contains("e"), let dot = text.firstIndex(of: ".") else {
    return "\(base), timeIntervalSince1970: \(text)"
  }
  return String(base.dropLast()) + text[dot...] + "Z"
}

/// `5 bytes: 68656c6c6f`; past 64 bytes, the first 32 and a checksum of all of them, so that
/// long values that differ still print differently.
private func hexText(_ data: Data) -> String {
  func hex<S: Sequence<UInt8>>(_ bytes: S) -> String {
    bytes.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }
  let count = "\(data.count) byte\(data.count == 1 ? "" : "s")"
  guard !data.isEmpty else { return count }
  guard data.count > 64 else { return "\(count): \(hex(data))" }
  // FNV-1a: cheap, and any change of a byte changes it.
  var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in data {
    checksum ^= UInt64(byte)
    checksum &*= 0x100_0000_01b3
  }
  return "\(count): \(hex(data.prefix(32)))…, checksum \(String(checksum, radix: 16))"
}
