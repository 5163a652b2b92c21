/// Where two values that `==` calls different differ, for when their dumps print alike: the
/// path to the deepest field, element or payload that is `Equatable` and compares unequal, and
/// its type (the root's type when no part of it does).
///
/// For the test store's failure message only; built on `Mirror`.
package func _firstUnequal(_ expected: Any, _ actual: Any) -> (path: String, type: String) {
  let found = unequalPath(expected, actual, depth: 0) ?? ([], typeDescription(type(of: actual)))
  return (found.path.joined(separator: "."), found.type)
}

private func unequalPath(_ lhs: Any, _ rhs: Any, depth: Int) -> (path: [String], type: String)? {
  guard depth < 64 else { return nil }
  let left = Array(Mirror(reflecting: lhs).children)
  let right = Array(Mirror(reflecting: rhs).children)
  guard left.count == right.count else { return nil }
  for (offset, (l, r)) in zip(left, right).enumerated() {
    let label = l.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? "[\(offset)]"
    switch isEqual(l.value, r.value) {
    case true?:
      continue
    case false?:
      let below = unequalPath(l.value, r.value, depth: depth + 1)
      return ([label] + (below?.path ?? []), below?.type ?? typeDescription(type(of: r.value)))
    case nil:
      // Not `Equatable`: the difference may be inside it.
      if let below = unequalPath(l.value, r.value, depth: depth + 1) {
        return ([label] + below.path, below.type)
      }
    }
  }
  return nil
}

/// `lhs == rhs` when `lhs` is `Equatable` and `rhs` has its type; `nil` when not `Equatable`.
private func isEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
  guard let lhs = lhs as? any Equatable else { return nil }
  return lhs.isEqual(to: rhs)
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
