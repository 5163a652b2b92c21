/// One run of changed lines between two dumps, with where it starts in each.
struct LineChange: Equatable {
  /// Where the removed lines start in the old dump.
  let oldStart: Int
  /// The change in the form a ``RecordedSession`` keeps: its `start` is in the new dump.
  let hunk: RecordedSession.Hunk
}

/// The runs of lines that differ between `old` and `new`, smallest first: the common head and
/// tail are skipped, and the middle is compared with Myers' algorithm (O((n + m)·d) for d
/// differing lines). Past `maxDifferences` differing lines, the whole middle is one run: a
/// state that changed that much says little line by line.
///
/// Unlike ``lineDiff(_:_:context:)`` (meant for test failures on small states), this stays
/// fast on dumps of thousands of lines, as a session recorder needs after every action.
func lineChanges(_ old: [String], _ new: [String], maxDifferences: Int = 2_000) -> [LineChange] {
  var head = 0
  while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
  var tail = 0
  while tail < old.count - head, tail < new.count - head,
    old[old.count - 1 - tail] == new[new.count - 1 - tail]
  {
    tail += 1
  }
  let a = old[head..<(old.count - tail)]
  let b = new[head..<(new.count - tail)]
  if a.isEmpty && b.isEmpty { return [] }
  guard !a.isEmpty, !b.isEmpty,
    let matches = matchingLines(a, b, maxDifferences: maxDifferences)
  else {
    return [
      LineChange(
        oldStart: head, hunk: .init(start: head, removed: a.count, inserted: Array(b)))
    ]
  }
  var changes: [LineChange] = []
  var i = a.startIndex
  var j = b.startIndex
  for (x, y) in matches + [(a.endIndex, b.endIndex)] {
    if x > i || y > j {
      changes.append(
        LineChange(oldStart: i, hunk: .init(start: j, removed: x - i, inserted: Array(b[j..<y]))))
    }
    i = x + 1
    j = y + 1
  }
  return changes
}

/// The pairs of indices of equal lines a shortest edit keeps, in order; `nil` past
/// `maxDifferences` edits.
private func matchingLines(
  _ a: ArraySlice<String>, _ b: ArraySlice<String>, maxDifferences: Int
) -> [(Int, Int)]? {
  let n = a.count
  let m = b.count
  let limit = min(n + m, maxDifferences)
  let offset = limit + 1
  var v = [Int](repeating: 0, count: 2 * limit + 3)
  // The frontier before each round, kept to walk back the path: O(d²) memory.
  var trace: [[Int]] = []
  for d in 0...limit {
    trace.append(Array(v[(offset - d)...(offset + d)]))
    for k in stride(from: -d, through: d, by: 2) {
      var x =
        k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
        ? v[offset + k + 1] : v[offset + k - 1] + 1
      var y = x - k
      while x < n, y < m, a[a.startIndex + x] == b[b.startIndex + y] {
        x += 1
        y += 1
      }
      v[offset + k] = x
      if x >= n, y >= m {
        return walkBack(trace: trace, d: d, n: n, m: m).map {
          (a.startIndex + $0.0, b.startIndex + $0.1)
        }
      }
    }
  }
  return nil
}

/// Follows the rounds of Myers' search back from the end, collecting the diagonal moves.
private func walkBack(trace: [[Int]], d: Int, n: Int, m: Int) -> [(Int, Int)] {
  var matches: [(Int, Int)] = []
  var x = n
  var y = m
  for round in stride(from: d, through: 0, by: -1) {
    let frontier = trace[round]
    func reach(_ k: Int) -> Int { frontier[k + round] }
    let k = x - y
    let previousK: Int
    if round == 0 {
      previousK = 0
    } else {
      previousK = k == -round || (k != round && reach(k - 1) < reach(k + 1)) ? k + 1 : k - 1
    }
    let previousX = round == 0 ? 0 : reach(previousK)
    let previousY = previousX - previousK
    // The diagonal after the round's one edit: equal lines.
    let diagonalStart = round == 0 ? 0 : (previousK == k + 1 ? previousX : previousX + 1)
    while x > diagonalStart, y > diagonalStart - k {
      x -= 1
      y -= 1
      matches.append((x, y))
    }
    x = previousX
    y = previousY
  }
  return matches.reversed()
}
