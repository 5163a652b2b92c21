/// A line diff of two values' ``stateDump(_:maxElements:)``: unchanged lines start with two
/// spaces, lines only in `old` with `−`, lines only in `new` with `+`. Long unchanged runs are
/// folded, but never the lines of the values that hold a change (each enclosing field, element,
/// with its `id`, and screen, opened and closed), so a change deep in a state says where it is.
///
/// ```swift
/// print(stateDiff(Counter.State(count: 1), Counter.State(count: 2)) ?? "no difference")
/// //   Counter.State(
/// // −   count: 1
/// // +   count: 2
/// //   )
/// ```
///
/// - Returns: `nil` when the dumps are equal.
public func stateDiff<Value>(
  _ old: Value, _ new: Value, context: Int = 2, maxElements: Int? = nil
) -> String? {
  lineDiff(
    stateDump(old, maxElements: maxElements)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
    stateDump(new, maxElements: maxElements)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
    context: context)
}

/// The diff of two dumps made with ``stateDump(_:maxElements:)``, or `nil` when they are equal:
/// for a test store, which dumps the expected state in a mode of its own.
package func _dumpDiff(_ old: String, _ new: String, context: Int = 2) -> String? {
  lineDiff(
    old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
    new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
    context: context)
}

/// The diff of two lists of lines, or `nil` when they are equal.
func lineDiff(_ old: [String], _ new: [String], context: Int) -> String? {
  guard old != new else { return nil }
  enum Line {
    case same(String)
    case removed(String)
    case added(String)

    var text: String {
      switch self {
      case let .same(text), let .removed(text), let .added(text): text
      }
    }
    var isChange: Bool {
      if case .same = self { false } else { true }
    }
  }
  // Longest common subsequence, by dynamic programming: dumps are small.
  let n = old.count
  let m = new.count
  var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
  for i in stride(from: n - 1, through: 0, by: -1) {
    for j in stride(from: m - 1, through: 0, by: -1) {
      table[i][j] =
        old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
    }
  }
  var lines: [Line] = []
  var i = 0
  var j = 0
  while i < n || j < m {
    if i < n, j < m, old[i] == new[j] {
      lines.append(.same(old[i]))
      i += 1
      j += 1
    } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
      lines.append(.removed(old[i]))
      i += 1
    } else {
      lines.append(.added(new[j]))
      j += 1
    }
  }
  // Keep `context` unchanged lines around each change; fold the rest.
  var keep = Array(repeating: false, count: lines.count)
  for (index, line) in lines.enumerated() {
    if case .same = line { continue }
    for k in max(0, index - context)...min(lines.count - 1, index + context) { keep[k] = true }
  }
  // Each change shows inside the values that hold it: the opening line of every enclosing
  // value (the field, the element's id, the screen) and its closing line, so a change three
  // levels down says where it is, as TCA's diff does.
  keepEnclosingLines(of: lines.map(\.text), changed: lines.map(\.isChange), in: &keep)
  // The root's line (its type) always shows, and a fold never hides a single line: the
  // marker would take the line's room and say less.
  if !keep.isEmpty { keep[0] = true }
  for index in keep.indices where !keep[index] {
    let before = index == 0 || keep[index - 1]
    let after = index == keep.count - 1 || keep[index + 1]
    if before && after { keep[index] = true }
  }
  var output: [String] = []
  var folded = 0
  for (index, line) in lines.enumerated() {
    guard keep[index] else {
      folded += 1
      continue
    }
    if folded > 0 {
      output.append("  … (\(folded) unchanged)")
      folded = 0
    }
    switch line {
    case let .same(text): output.append("  " + text)
    case let .removed(text): output.append("− " + text)
    case let .added(text): output.append("+ " + text)
    }
  }
  if folded > 0 { output.append("  … (\(folded) unchanged)") }
  return output.joined(separator: "\n")
}

/// Marks, for every changed line, the lines of the values enclosing it (and an enclosing
/// element's `id` line): a dump indents a value's contents one step (two spaces) past its
/// opening line, and closes it at the opening line's indentation. Linear in the number of
/// lines.
func keepEnclosingLines(of texts: [String], changed: [Bool], in keep: inout [Bool]) {
  let depth = texts.map { $0.prefix(while: { $0 == " " }).count }
  // The nearest line before each one that is less indented: the opening line of the value
  // that holds it.
  var opener = [Int?](repeating: nil, count: texts.count)
  var stack: [Int] = []
  for index in texts.indices {
    while let last = stack.last, depth[last] >= depth[index] { stack.removeLast() }
    opener[index] = stack.last
    stack.append(index)
  }
  // The nearest line after each one that is less indented: the closing line of that value.
  var closer = [Int?](repeating: nil, count: texts.count)
  stack.removeAll()
  for index in texts.indices.reversed() {
    while let last = stack.last, depth[last] >= depth[index] { stack.removeLast() }
    closer[index] = stack.last
    stack.append(index)
  }
  // A line whose enclosing lines are marked already needs no second walk.
  var walked = [Bool](repeating: false, count: texts.count)
  for index in texts.indices where changed[index] {
    var line = index
    while !walked[line], let parent = opener[line] {
      walked[line] = true
      keep[parent] = true
      if let end = closer[line] { keep[end] = true }
      // An element's id names it better than its position: keep its `id` line too.
      let first = parent + 1
      if first < texts.count, depth[first] == depth[parent] + 2,
        texts[first].dropFirst(depth[first]).hasPrefix("id: ")
      {
        keep[first] = true
      }
      line = parent
    }
  }
}
