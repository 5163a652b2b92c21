import Foundation
import Testing

/// The inspector page in a real browser: sessions recorded by the built executables
/// (`--record`), made into pages by `cascade-inspect`, loaded by headless Chromium at a given
/// step (`#step=N`), checked through the document the page built, and photographed.
///
/// Needs `swift build`, Chromium (`apt-get install chromium`) and `CASCADE_BROWSER=1`, as CI
/// sets (`.ci/run`); skipped otherwise. `CASCADE_SCREENSHOTS=DIR` keeps the screenshots.
@Suite(
  .serialized,
  .enabled(
    if: ProcessInfo.processInfo.environment["CASCADE_BROWSER"] == "1",
    "the browser tests run with CASCADE_BROWSER=1 and Chromium installed (see .ci/run)"),
  .timeLimit(.minutes(5)))
struct InspectorBrowserTests {
  let sandbox = Sandbox()

  static let chromium: URL? = {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["CASCADE_CHROMIUM"] { return URL(fileURLWithPath: path) }
    for folder in (environment["PATH"] ?? "/usr/bin").split(separator: ":") {
      for name in ["chromium", "chromium-browser", "google-chrome"] {
        let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      }
    }
    return nil
  }()

  var screenshots: URL {
    if let path = ProcessInfo.processInfo.environment["CASCADE_SCREENSHOTS"] {
      let folder = URL(fileURLWithPath: path, isDirectory: true)
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      return folder
    }
    return sandbox.folder("screenshots")
  }

  /// Runs headless Chromium on `page` at `#step=step` with `arguments`.
  func browse(_ page: URL, step: Int, _ arguments: [String]) throws -> Executable.Run {
    let chromium = try #require(Self.chromium, "Chromium is not installed")
    let profile = sandbox.folder("profile-\(UUID().uuidString.prefix(8))")
    var address = URLComponents(url: page, resolvingAgainstBaseURL: false)!
    address.fragment = "step=\(step)"
    let run = try Executable(url: chromium).run(
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
        "--user-data-dir=\(profile.path)", "--window-size=1400,900",
      ] + arguments + [address.string!],
      in: sandbox.base, temporaryDirectory: sandbox.tmp, timeout: 60)
    try? FileManager.default.removeItem(at: profile)
    return run
  }

  /// The document the page built at `#step=step`.
  func document(_ page: URL, step: Int) throws -> String {
    let run = try browse(page, step: step, ["--dump-dom"])
    #expect(run.status == 0 && !run.hung, "\(run)")
    #expect(run.output.contains(#"data-ready="true""#), "the page finished loading")
    return run.output
  }

  /// Takes a screenshot of `page` at `#step=step`; checks it is a real PNG.
  func screenshot(_ page: URL, step: Int, name: String) throws {
    let file = screenshots.appendingPathComponent("\(name)-step-\(step).png")
    let run = try browse(page, step: step, ["--screenshot=\(file.path)"])
    #expect(run.status == 0 && !run.hung, "\(run)")
    let data = try Data(contentsOf: file)
    #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file.path) is a PNG")
    #expect(data.count > 20_000, "\(file.path) shows a page, not a blank")
  }

  /// The selected step's diff, as the page built it.
  func diff(in document: String) throws -> String {
    let start = try #require(document.range(of: #"id="diff""#))
    let end = try #require(
      document.range(of: "<h2>State</h2>", range: start.upperBound..<document.endIndex))
    return String(document[start.upperBound..<end.lowerBound])
  }

  /// Records `app` (its scenario, or an `--interactive` session typing `input`) and makes the
  /// inspector page; returns the page and the steps' case paths and changed fields.
  func recordAndInspect(
    _ app: String, arguments: [String] = [], input: String = ""
  ) throws -> (page: URL, steps: [(casePath: String, fields: [String])]) {
    let file = sandbox.base.appendingPathComponent("\(app).json")
    let run = try sandbox.run(app, arguments + ["--record", file.path], input: input, timeout: 60)
    #expect(run.status == 0, "\(run)")
    let page = sandbox.base.appendingPathComponent("\(app).html")
    let inspect = try sandbox.run("cascade-inspect", [file.path, "-o", page.path])
    #expect(inspect.status == 0, "\(inspect)")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
    let session = try #require((object as? [String: Any])?["session"] as? [String: Any])
    let steps = try #require(session["steps"] as? [[String: Any]]).map {
      (casePath: $0["case"] as? String ?? "", fields: $0["fields"] as? [String] ?? [])
    }
    return (page, steps)
  }

  /// The 1-based number of the first step of `casePath`.
  func step(_ casePath: String, in steps: [(casePath: String, fields: [String])]) throws -> Int {
    try #require(steps.firstIndex { $0.casePath == casePath }, "a \(casePath) step") + 1
  }

  @Test func aTouchSchoolSessionShowsWhichFieldEachStepChanged() throws {
    defer { sandbox.remove() }
    let (page, steps) = try recordAndInspect("touch-school")
    let picked = try step("schoolSelected", in: steps)
    let pickedDiff = try diff(in: try document(page, step: picked))
    #expect(pickedDiff.contains(#"<span class="field">mySchool</span>"#), "\(pickedDiff)")
    #expect(pickedDiff.contains(#"<div class="line add">"#))
    #expect(pickedDiff.contains("서울고등학교"), "Korean text shows")

    let tapped = try step("path.element.game.touchTapped", in: steps)
    let tappedDocument = try document(page, step: tapped)
    #expect(tappedDocument.contains("step \(tapped) of \(steps.count)"))
    #expect(try diff(in: tappedDocument).contains(#"<span class="field">pendingTouches</span>"#))
    #expect(tappedDocument.contains(#"<div class="row selected""#), "the step is selected")

    for step in [1, picked, tapped] {
      try screenshot(page, step: step, name: "touch-school")
    }
  }

  @Test func aQappleSessionShowsWhichFieldEachStepChanged() throws {
    defer { sandbox.remove() }
    let (page, steps) = try recordAndInspect("qapple")
    let liked = try step("path.element.answers.likeButtonTapped", in: steps)
    let likedDiff = try diff(in: try document(page, step: liked))
    #expect(likedDiff.contains(#"<span class="field">isLiked</span>"#), "\(likedDiff)")
    #expect(likedDiff.contains("−") && likedDiff.contains("+"))
    for step in [1, liked] {
      try screenshot(page, step: step, name: "qapple")
    }
  }

  /// A `@PresentationState var write` shows as `write` in the diff and the tree, as the chips
  /// say, not as its storage `_write`.
  @Test func aPresentedSheetShowsUnderTheFeaturesOwnName() throws {
    defer { sandbox.remove() }
    let (page, steps) = try recordAndInspect("qapple")
    let opened = try step("path.element.answers.writeButtonTapped", in: steps)
    #expect(steps[opened - 1].fields == ["path[#0].write"], "\(steps[opened - 1].fields)")
    let document = try document(page, step: opened)
    #expect(try diff(in: document).contains(#"<span class="field">write</span>"#))
    #expect(!document.contains("_write"))
  }

  /// Runs `body`, a script of the test's own, after the page's script on `page` opened at
  /// `step`, and returns what it left in `document.body.dataset.probe`.
  func probe(_ page: URL, step: Int = 1, _ body: String) throws -> String {
    let html = try String(contentsOf: page, encoding: .utf8)
    let script = "<script>\n(function () {\n\(body)\n})();\n</script>"
    try html.replacingOccurrences(of: "</body>", with: script + "</body>")
      .write(to: page, atomically: true, encoding: .utf8)
    let document = try document(page, step: step)
    let start = try #require(document.range(of: #"data-probe=""#)).upperBound
    return Self.unescaped(String(document[start...].prefix { $0 != "\"" }))
  }

  @Test func theKeysAndTheFilterMoveThroughTheSteps() throws {
    defer { sandbox.remove() }
    let (page, steps) = try recordAndInspect("qapple")
    // It presses keys and types in the filter as a user would, and writes down where each
    // left the page.
    let seen = try probe(
      page,
      """
        const seen = [];
        const press = (key) =>
          document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
        const where = () => location.hash + " " +
          document.querySelector("#step .meta").textContent.split(" · ")[0];
        press("ArrowDown"); press("ArrowDown"); seen.push(where());
        press("End"); seen.push(where());
        press("ArrowUp"); seen.push(where());
        press("Home"); seen.push(where());
        const filter = document.getElementById("filter");
        filter.value = "likeButtonTapped";
        filter.dispatchEvent(new Event("input"));
        seen.push(document.getElementById("shown").textContent);
        seen.push(where());  // the first step of the filtered list: step 1 is filtered away
        press("ArrowDown"); seen.push(where());
        document.body.dataset.probe = seen.join(";");
      """
    ).split(separator: ";").map(String.init)
    let count = steps.count
    let liked = steps.indices.filter { steps[$0].casePath.contains("likeButtonTapped") }
    let firstLiked = try #require(liked.first) + 1
    // Built one line at a time: as one literal, it took the type checker over 300 ms.
    func at(_ step: Int) -> String { "#step=\(step) step \(step) of \(count)" }
    var expected: [String] = [at(3), at(count), at(count - 1), at(1)]
    expected.append("\(liked.count) shown")
    expected.append(at(firstLiked))
    expected.append(at(try #require(liked.dropFirst().first) + 1))
    #expect(seen == expected)
  }

  @Test func aScriptTypedIntoTheStateShowsAsTextAndNeverRuns() throws {
    defer { sandbox.remove() }
    let hostile =
      #"<img src=x onerror="document.title='PWNED'"><script>document.title='PWNED'</script> 안녕 🍎"#
    let (page, steps) = try recordAndInspect(
      "qapple", arguments: ["--interactive"],
      input: "question\nanswers\nwrite \(hostile)\nquit\n")
    let typed = try step("path.element.answers.write.presented.textChanged", in: steps)
    let document = try document(page, step: typed)
    let title = try #require(document.range(of: "<title>")).upperBound
    #expect(!document[title...].hasPrefix("PWNED"), "no script from the state ran")
    #expect(!document.contains("<img"), "no element was made from the state")
    #expect(!document.contains("<script>document.title"), "no script element either")
    #expect(document.contains("&lt;script&gt;document.title="), "the text is shown as text")
    #expect(document.contains("안녕 🍎"))
    try screenshot(page, step: typed, name: "qapple-hostile")
  }

  @Test func aTenThousandStepSessionOpensAtAnyStep() throws {
    defer { sandbox.remove() }
    // A session as a long recording writes it: a 10,000-element list in the state, and
    // 10,000 steps that each change one element.
    let count = 10_000
    var initial = ["Big.State(", "  values: ["]
    initial += (0..<count).map { "    [\($0)]: 0" }
    initial += ["  ]", ")"]
    let steps = (0..<count).map { index in
      [
        "action": ".set(\(index))", "case": "set", "origin": index % 3 == 0 ? "user" : "effect",
        "screen": "root", "changes": [[2 + index, 1, ["    [\(index)]: 1"]]],
        "fields": ["values[\(index)]"],
      ] as [String: Any]
    }
    let session: [String: Any] = [
      "stateType": "Big.State", "actionType": "Big.Action", "initialState": initial,
      "steps": steps,
    ]
    let file = sandbox.base.appendingPathComponent("big.json")
    try JSONSerialization.data(withJSONObject: ["session": session]).write(to: file)
    let page = sandbox.base.appendingPathComponent("big.html")
    let inspect = try sandbox.run("cascade-inspect", [file.path, "-o", page.path])
    #expect(inspect.status == 0, "\(inspect)")

    let document = try document(page, step: count)
    #expect(document.contains("step \(count) of \(count)"))
    #expect(document.contains(#"<div class="row selected""#), "the list scrolled to the step")
    #expect(try diff(in: document).contains(#"<span class="field">[9999]</span>"#))
    let rows = document.components(separatedBy: #"<div class="row"#).count - 1
    #expect(rows < 100, "only the rows in view are in the document (\(rows))")
    let size = try Data(contentsOf: page).count
    let loaded = document.range(of: #"data-load-ms=""#).map {
      document[$0.upperBound...].prefix { $0.isNumber }
    }
    print("inspector at \(count) steps: \(size / 1024) KB, ready after \(loaded ?? "?") ms")
    try screenshot(page, step: count, name: "ten-thousand")
  }

  /// The `(title, shown text)` of each element whose opening tag starts with `tagStart` and whose
  /// first `<span>` of `spanClass` holds the shown text.
  func titled(_ tagStart: String, span spanClass: String, in document: String) -> [(String, String)]
  {
    document.components(separatedBy: tagStart).dropFirst().compactMap { chunk in
      guard let titleStart = chunk.range(of: #"title=""#) else { return nil }
      let title = chunk[titleStart.upperBound...].prefix { $0 != "\"" }
      guard let span = chunk.range(of: #"<span class="\#(spanClass)">"#) else { return nil }
      let shown = chunk[span.upperBound...].prefix { $0 != "<" }
      return (Self.unescaped(String(title)), Self.unescaped(String(shown)))
    }
  }

  static func unescaped(_ html: String) -> String {
    html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
  }

  @Test func nestedActionNamesKeepThePartThatTellsThemApart() throws {
    defer { sandbox.remove() }
    let (page, steps) = try recordAndInspect("qapple")
    let typed = try step("path.element.answers.write.presented.textChanged", in: steps)
    let document = try document(page, step: typed)

    // Rows: a long nested action loses wrappers from the left, never its innermost case.
    let rows = titled(#"<div class="row"#, span: "action", in: document)
    let nested = rows.filter { $0.0.hasPrefix(".path(.element(id: #0, action: .answers(.write(") }
    #expect(nested.count >= 2, "rows of the write screen are in view: \(rows.map(\.1))")
    for (whole, shown) in nested {
      #expect(shown.hasPrefix("…"), "\(shown) is shortened from the left")
      #expect(whole.contains(String(shown.dropFirst())), "\(shown) is the tail of \(whole)")
    }
    #expect(
      Set(nested.map(\.1)).count == Set(nested.map(\.0)).count,
      "rows of different actions read differently")
    #expect(nested.contains { $0.1.contains(".textChanged(") })
    #expect(nested.contains { $0.1.contains(".submitButtonTapped") })

    // Actions per case: every name shows its last case, so no two rows read the same.
    let counts = titled("<li ", span: "name", in: document)
    #expect(counts.count == Set(steps.map(\.casePath)).count)
    #expect(Set(counts.map(\.1)).count == counts.count, "\(counts.map(\.1))")
    for (whole, shown) in counts {
      let last = whole.split(separator: ".").last.map(String.init) ?? whole
      #expect(shown.hasSuffix(last), "\(shown) ends with \(last)")
      #expect(shown.count <= 31, "\(shown) fits the column without being cut")
    }
    try screenshot(page, step: typed, name: "qapple-nested-names")
  }

  @Test func filteringAwayTheSelectedStepMovesTheDetailPaneWithTheList() throws {
    defer { sandbox.remove() }
    let (page, steps) = try recordAndInspect("qapple")
    let json = try probe(
      page,
      """
        const seen = [];
        const filter = document.getElementById("filter");
        const type = (text) => { filter.value = text; filter.dispatchEvent(new Event("input")); };
        const detail = () => document.querySelector("#step .action").textContent;
        type("textChanged"); seen.push(location.hash, detail());
        type("no such action"); seen.push(detail(), document.getElementById("diff").textContent);
        type(""); seen.push(location.hash);
        document.body.dataset.probe = JSON.stringify(seen);
      """)
    let seen = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
    let typed = try step("path.element.answers.write.presented.textChanged", in: steps)
    let object = try JSONSerialization.jsonObject(
      with: Data(contentsOf: sandbox.base.appendingPathComponent("qapple.json")))
    let session = try #require((object as? [String: Any])?["session"] as? [String: Any])
    let actions = try #require(session["steps"] as? [[String: Any]]).map { $0["action"] as? String }
    #expect(
      seen == [
        "#step=\(typed)", actions[typed - 1] ?? "?", "No action matches “no such action”", "",
        "#step=\(typed)",
      ])
  }

}
