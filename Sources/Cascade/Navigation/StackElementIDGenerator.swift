import Synchronization

/// Where a store's new ``StackElementID``s come from: one sequence per store, so that two
/// stacks of one store (two tabs built from one feature, or a stack replaced by a new one)
/// never give two screens the same id, and a screen's effects can never reach another screen.
///
/// A store makes its own when it is created; a `TestStore` shares its one with the code that
/// builds the initial state, and replays it for each expectation, so that a test can name the
/// screens it pushed (`$0.path[id: 0]`) and get the same ids every run. Outside a store (a
/// stack built by hand), a stack numbers its screens itself, from 0.
package final class _StackElementIDGenerator: Sendable {
  private let next: Atomic<Int>

  /// A sequence whose first id is `first`.
  package init(startingAt first: Int = 0) { self.next = Atomic(first) }

  /// The id the next push gets, without taking it.
  package func peek() -> Int { next.load(ordering: .relaxed) }

  /// Puts the sequence back to where ``peek()`` once read it: for CascadeTesting's explorer,
  /// which sets a store back to a configuration it stored.
  package func reset(to next: Int) { self.next.store(next, ordering: .relaxed) }

  /// Takes the next id, at least `floor` (the stack's own next id: a stack built outside the
  /// store may already hold lower ones).
  func take(atLeast floor: Int) -> Int {
    var current = next.load(ordering: .relaxed)
    while true {
      let id = Swift.max(current, floor)
      let (exchanged, original) = next.compareExchange(
        expected: current, desired: id + 1, ordering: .relaxed)
      if exchanged { return id }
      current = original
    }
  }

  /// Makes sure `id`, given from outside (a `.push(id:state:)` action), is never given again.
  package func skip(past id: Int) {
    var current = next.load(ordering: .relaxed)
    while current <= id {
      let (exchanged, original) = next.compareExchange(
        expected: current, desired: id + 1, ordering: .relaxed)
      if exchanged { return }
      current = original
    }
  }
}

/// The current store's next stack element id, at least `floor`; `floor` outside a store.
@usableFromInline
func _takeStackElementID(atLeast floor: Int) -> Int {
  DependencyValues._currentStackElementIDs?.take(atLeast: floor) ?? floor
}

/// Makes sure the current store never gives `id` again.
@usableFromInline
func _skipStackElementID(past id: Int) {
  DependencyValues._currentStackElementIDs?.skip(past: id)
}

extension DependencyValues {
  /// These values with an id sequence of their own: what a new store pins.
  @usableFromInline
  func _withNewStackElementIDs() -> Self {
    var values = self
    values._stackElementIDs = _StackElementIDGenerator()
    return values
  }
}

/// Lets a test store find the stacks in a state built outside its id sequence.
package protocol _AnyStackState {
  /// The id the stack would give its next screen: above every id on it.
  var _nextStackElementID: Int { get }
}

extension StackState: _AnyStackState {
  package var _nextStackElementID: Int { _nextID }
}

/// The lowest id above every screen of every stack in `value`, found by walking it with
/// `Mirror` (classes are not entered): for a test store's initial state, never per action.
package func _nextFreeStackElementID(in value: Any) -> Int {
  var next = 0
  func walk(_ value: Any, depth: Int) {
    if let stack = value as? any _AnyStackState {
      next = Swift.max(next, stack._nextStackElementID)
    }
    guard depth < 64 else { return }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .class { return }
    for child in mirror.children { walk(child.value, depth: depth + 1) }
  }
  walk(value, depth: 0)
  return next
}
