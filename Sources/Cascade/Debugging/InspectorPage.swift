import Foundation

extension RecordedSession {
  /// The inspector: one self-contained HTML page that shows this session, to open in any
  /// browser, from a file, with no network and nothing else to install.
  ///
  /// The page lists every action (its case path, its origin and screen) in a timeline that
  /// renders only the rows in view, so a 10,000-step session opens at once. Selecting a step
  /// shows the `−/+` lines it changed with the changed fields highlighted, the shared values
  /// it changed, and the whole state as a collapsible tree. ↑/↓ step through the actions,
  /// Home/End jump to the first and last; the filter box keeps the actions whose text, case
  /// path, screen or changed fields contain what is typed (so "which action changed `count`?"
  /// is one word away); the side panel counts the actions of each case. The address
  /// `session.html#step=12` opens at step 12 (steps count from 1; `#step=0` is the state
  /// before the first action).
  ///
  /// ```swift
  /// let session = try RecordedSession(contentsOf: URL(fileURLWithPath: "session.json"))
  /// try session.inspectorHTML(title: "Checkout")
  ///   .write(toFile: "session.html", atomically: true, encoding: .utf8)
  /// ```
  ///
  /// The session is embedded as JSON in a `<script type="application/json">` block with `<`,
  /// `>`, `&`, U+2028 and U+2029 escaped, so no text in the state can end the block; the page
  /// puts every piece of state text into the document as text, never as HTML, so a state
  /// string `<script>` shows as those characters and never runs.
  ///
  /// - Parameter title: The page's title; the state's type when `nil`.
  /// - Returns: The whole HTML document.
  public func inspectorHTML(title: String? = nil) -> String {
    let title = title ?? "\(stateType) session"
    struct Payload: Encodable {
      let title: String
      let session: RecordedSession
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // Encoding strings and integers cannot fail; an empty object keeps the page working.
    let json = (try? encoder.encode(Payload(title: title, session: self))).map {
      String(decoding: $0, as: UTF8.self)
    }
    return InspectorAssets.document(
      title: htmlEscaped(title), data: scriptSafeJSON(json ?? "{}"))
  }
}

/// JSON that can sit inside a `<script>` block: every `<`, `>`, `&`, U+2028 and U+2029 is
/// written as a `\u` escape, which JSON reads back as the same character. These characters
/// only ever occur inside JSON strings, where the escapes are valid.
func scriptSafeJSON(_ json: String) -> String {
  var result = ""
  result.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
  for scalar in json.unicodeScalars {
    switch scalar {
    case "<": result += "\\u003c"
    case ">": result += "\\u003e"
    case "&": result += "\\u0026"
    case "\u{2028}": result += "\\u2028"
    case "\u{2029}": result += "\\u2029"
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// Text for an HTML element or attribute: `&`, `<`, `>`, `"` and `'` as entities.
func htmlEscaped(_ text: String) -> String {
  var result = ""
  for character in text {
    switch character {
    case "&": result += "&amp;"
    case "<": result += "&lt;"
    case ">": result += "&gt;"
    case "\"": result += "&quot;"
    case "'": result += "&#39;"
    default: result.append(character)
    }
  }
  return result
}
