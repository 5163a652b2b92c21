// The consistency checks of `IdentifiedArray`: what every mutator must leave true of its
// storage. The tests call them after each mutation; nothing else does, and outside a debug
// build their bodies are empty, so an app pays nothing for them.

extension IdentifiedArray {
  /// Whether the checks below look at anything: only in a debug build (the tests').
  static var _isConsistencyCheckingEnabled: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// What is wrong with the array's storage, in words; empty when it is consistent:
  ///
  /// - the positions table has one entry per element, and every element's id leads to the
  ///   element's own position (so no id appears twice);
  /// - the change log holds at most what it keeps, its entries' stamps increase and all come
  ///   before the array's stamp (each change is logged under the stamp it replaced);
  /// - an array whose log of element changes is off has no in-place change logged (the log is
  ///   turned on once, and only a new array starts with it off).
  ///
  /// O(n): a test's tool, never called on an app's path.
  func _invariantViolations() -> [String] {
    #if DEBUG
      var violations: [String] = []
      if _positions.count != _elements.count {
        violations.append(
          "the positions table has \(_positions.count) entries for \(_elements.count) elements")
      }
      var seen = Set<ID>()
      for (position, element) in _elements.enumerated() {
        let elementID = _id(element)
        if !seen.insert(elementID).inserted {
          violations.append("the id \(elementID) appears twice (again at \(position))")
        }
        if let found = _positions[elementID] {
          if found != position {
            violations.append(
              "the id \(elementID) leads to \(found), its element is at \(position)")
          }
        } else {
          violations.append("the id \(elementID), at \(position), is not in the positions table")
        }
      }
      if _log.entries.count > 2 * _StructureLog<ID>.kept {
        violations.append(
          "the log holds \(_log.entries.count) entries, more than \(2 * _StructureLog<ID>.kept)")
      }
      var previous: UInt64?
      for (index, entry) in _log.entries.enumerated() {
        if let previous, entry.stamp <= previous {
          violations.append("log entry \(index)'s stamp \(entry.stamp) is not after \(previous)")
        }
        if entry.stamp >= _stamp {
          violations.append("log entry \(index)'s stamp \(entry.stamp) is not before \(_stamp)")
        }
        if case .modified = entry.change, !_logsElementChanges {
          violations.append("log entry \(index) is an element change, but the log of those is off")
        }
        previous = entry.stamp
      }
      return violations
    #else
      return []
    #endif
  }

  /// Stops the program when the storage is inconsistent (see ``_invariantViolations()``); does
  /// nothing outside a debug build.
  func _checkInvariants() {
    #if DEBUG
      let violations = _invariantViolations()
      precondition(
        violations.isEmpty,
        "IdentifiedArray is inconsistent: " + violations.joined(separator: "; "))
    #endif
  }
}
