import Testing

@testable import Cascade

/// A presentation reducer reaches `\.$child` (a computed key path) at the stored wrapper's
/// offset, found at its first use; a key path it cannot pin down stays a key path. Either way,
/// what it reads and writes is what the key path reads and writes.
@MainActor
@Suite struct PresentationPathTests {
  struct Parent {
    var before = 7
    @PresentationState var child: Int?
    var after = "after"
    /// Stores each value twice: no single place to read and write.
    var mirrored: PresentationState<Int> {
      get { $child }
      set {
        $child = newValue
        copy = newValue
      }
    }
    var copy = PresentationState<Int>(wrappedValue: nil)
    /// Stores no presentation at all: a marker written through it never reads back.
    var derived: PresentationState<Int> {
      get { PresentationState(wrappedValue: before) }
      set { before = newValue.wrappedValue ?? 0 }
    }
  }

  @Test func theWrappersProjectedValueIsReachedInPlace() {
    let path = _PresentationPath(\Parent.$child)
    var parent = Parent()
    let offset = path.offset(in: &parent)
    #expect(offset != nil)
    path.modify(&parent) { $0.wrappedValue = 41 }
    #expect(parent.child == 41)
    parent.child = 42
    #expect(path.read(&parent) { $0.wrappedValue } == 42)
    path.modify(&parent) { $0.wrappedValue = nil }
    #expect(parent.child == nil)
    // The neighbours are untouched, and the probe changed nothing in the state it looked at.
    #expect(parent.before == 7 && parent.after == "after")
  }

  @Test func aPathStoringInTwoPlacesStaysAKeyPath() {
    let path = _PresentationPath(\Parent.mirrored)
    var parent = Parent()
    #expect(path.offset(in: &parent) == nil)
    path.modify(&parent) { $0.wrappedValue = 5 }
    #expect(parent.child == 5 && parent.copy.wrappedValue == 5)
  }

  @Test func aPathStoringNoPresentationStaysAKeyPath() {
    let path = _PresentationPath(\Parent.derived)
    var parent = Parent()
    #expect(path.offset(in: &parent) == nil)
    path.modify(&parent) { $0.wrappedValue = 9 }
    #expect(parent.before == 9)
    #expect(path.read(&parent) { $0.wrappedValue } == 9)
  }
}
