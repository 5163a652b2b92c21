import Cascade
import Foundation

/// The inspector page: what `cascade-inspect` writes for a recorded session. Its own target, so
/// that no app linking Cascade carries the page, and its style and script are files
/// (`Resources/inspector.css`, `Resources/inspector.js`) that a linter and the browser tests
/// read directly.
package enum InspectorPage {
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
  /// try InspectorPage.html(for: session, title: "Checkout")
  ///   .write(toFile: "session.html", atomically: true, encoding: .utf8)
  /// ```
  ///
  /// The page's style and script are `Resources/inspector.css` and `Resources/inspector.js`
  /// beside this file, read from the target's bundle.
  ///
  /// The session is embedded as JSON in a `<script type="application/json">` block with `<`,
  /// `>`, `&`, U+2028 and U+2029 escaped, so no text in the state can end the block; the page
  /// puts every piece of state text into the document as text, never as HTML, so a state
  /// string `<script>` shows as those characters and never runs.
  ///
  /// - Parameters:
  ///   - session: The recorded session.
  ///   - title: The page's title; the state's type when `nil`.
  /// - Returns: The whole HTML document.
  /// - Throws: ``InspectorPageError`` when the page's style or script is missing from the
  ///   bundle.
  package static func html(for session: RecordedSession, title: String? = nil) throws -> String {
    let title = title ?? "\(session.stateType) session"
    struct Payload: Encodable {
      let title: String
      let session: RecordedSession
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    // Encoding strings and integers cannot fail; an empty object keeps the page working.
    let json = (try? encoder.encode(Payload(title: title, session: session))).map {
      String(decoding: $0, as: UTF8.self)
    }
    return document(
      title: htmlEscaped(title), data: scriptSafeJSON(json ?? "{}"),
      style: try asset("inspector", "css"), script: try asset("inspector", "js"))
  }

  /// The page's script, as the page embeds it.
  package static var script: String { get throws { try asset("inspector", "js") } }

  /// The page's style, as the page embeds it.
  package static var style: String { get throws { try asset("inspector", "css") } }

  /// A file of `Resources/`.
  static func asset(_ name: String, _ fileExtension: String) throws -> String {
    guard
      let url = Bundle.module.url(
        forResource: name, withExtension: fileExtension, subdirectory: "Resources"),
      let text = try? String(contentsOf: url, encoding: .utf8)
    else { throw InspectorPageError.missingAsset("Resources/\(name).\(fileExtension)") }
    return text
  }

  static func document(title: String, data: String, style: String, script: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta http-equiv="Content-Security-Policy" \
    content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
    <title>\(title)</title>
    <style>\(style)</style>
    </head>
    <body>
    <header>
      <h1 id="title"></h1>
      <span id="summary"></span>
      <input id="filter" type="search" placeholder="Filter actions, cases, fields…" \
    aria-label="Filter actions" autocomplete="off">
      <span id="shown"></span>
    </header>
    <main>
      <section id="timeline" aria-label="Actions" tabindex="0"><div id="spacer"></div></section>
      <section id="detail">
        <div id="step"></div>
        <div id="fields"></div>
        <div id="shared"></div>
        <h2>Diff</h2>
        <div id="diff" class="code"></div>
        <h2>State</h2>
        <div id="tree" class="code"></div>
      </section>
      <aside id="cases"><h2>Actions per case</h2><ol id="counts"></ol></aside>
    </main>
    <script type="application/json" id="session-data">\(data)</script>
    <script>\(script)</script>
    </body>
    </html>

    """
  }
}

/// Why the inspector page could not be made.
package enum InspectorPageError: Error, CustomStringConvertible {
  /// A file of the page (its style or script) is not in the target's bundle.
  case missingAsset(String)

  package var description: String {
    switch self {
    case let .missingAsset(path):
      "The inspector page's \(path) is missing from cascade-inspect's resource bundle; "
        + "build cascade-inspect with SwiftPM and keep its .resources folder beside it."
    }
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
