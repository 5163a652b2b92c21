import Foundation
import Testing

@testable import Cascade

private struct Item: Identifiable, Comparable, Hashable, Sendable {
  let id: Int
  var score: Int
  static func < (lhs: Self, rhs: Self) -> Bool { lhs.score < rhs.score }
}

/// A seeded generator, so a failing shuffle can be replayed.
private struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Items with unique ids and random scores (ties included), for sizes 0 to 100.
private func samples() -> [[Item]] {
  var generator = SplitMix(state: 7)
  return [0, 1, 2, 3, 10, 49, 100].map { size in
    (0..<size).map { Item(id: $0, score: Int.random(in: -20...20, using: &generator)) }
  }
}

/// Every id is found at the position its element stands at, and nowhere else.
private func expectConsistent(
  _ array: IdentifiedArrayOf<Item>, sourceLocation: SourceLocation = #_sourceLocation
) {
  expectInvariants(array, sourceLocation: sourceLocation)
  #expect(array.ids == array.map(\.id), sourceLocation: sourceLocation)
  #expect(Set(array.ids).count == array.count, sourceLocation: sourceLocation)
  for (position, item) in array.enumerated() {
    #expect(array.index(id: item.id) == position, sourceLocation: sourceLocation)
    #expect(array[id: item.id] == item, sourceLocation: sourceLocation)
  }
}

/// Runs a generic operation on an identified array and on a plain array of the same elements:
/// the elements must come out the same, and every id must still lead to its own element. The
/// operation runs in generic code, where the standard library's own algorithms write back
/// through ``IdentifiedArray/swapAt(_:_:)`` and the positional subscript.
private func expectSameAsArray(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ operation: (inout IdentifiedArrayOf<Item>) -> Void,
  _ control: (inout [Item]) -> Void
) {
  for elements in samples() {
    var identified = IdentifiedArrayOf<Item>(uniqueElements: elements)
    var plain = elements
    operation(&identified)
    control(&plain)
    #expect(Array(identified) == plain, sourceLocation: sourceLocation)
    expectConsistent(identified, sourceLocation: sourceLocation)
  }
}

private func reverseInGenericCode<C: MutableCollection & BidirectionalCollection>(_ c: inout C) {
  c.reverse()
}

private func swapEndsInGenericCode<C: MutableCollection & BidirectionalCollection>(_ c: inout C) {
  guard !c.isEmpty else { return }
  c.swapAt(c.startIndex, c.index(before: c.endIndex))
}

private func sortInGenericCode<C: MutableCollection & RandomAccessCollection>(_ c: inout C)
where C.Element == Item {
  c.sort(by: { $0.score < $1.score || ($0.score == $1.score && $0.id > $1.id) })
}

@Suite struct IdentifiedArrayCollectionTests {
  // Each operation the MutableCollection conformance offers, concretely and through generic code
  // (where the standard library's own algorithms run, writing back through the subscript).

  @Test func swapAtMovesIDsWithElements() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1, score: 0), Item(id: 2, score: 0)]
    array.swapAt(0, 1)
    expectInvariants(array)
    #expect(array.ids == [2, 1])
    #expect(array.index(id: 1) == 1)
    array.swapAt(1, 1)
    #expect(array.ids == [2, 1])
    expectConsistent(array)
    expectSameAsArray({ swapEndsInGenericCode(&$0) }, { swapEndsInGenericCode(&$0) })
  }

  @Test func reverse() {
    var array = IdentifiedArrayOf<Item>(uniqueElements: samples()[4])
    array.reverse()
    #expect(array.ids == Array((0..<10).reversed()))
    expectConsistent(array)
    expectSameAsArray({ reverseInGenericCode(&$0) }, { reverseInGenericCode(&$0) })
  }

  @Test func sortComparableAndByPredicate() {
    for elements in samples() {
      var array = IdentifiedArrayOf<Item>(uniqueElements: elements)
      array.sort()
      #expect(array.map(\.score) == elements.map(\.score).sorted())
      expectConsistent(array)
      array.sort(by: >)
      #expect(array.map(\.score) == elements.map(\.score).sorted(by: >))
      expectConsistent(array)
    }
  }

  @Test func sortInGenericCodeWritesBackThroughTheSubscript() {
    expectSameAsArray({ sortInGenericCode(&$0) }, { sortInGenericCode(&$0) })
  }

  @Test func sortUsingAComparator() {
    for elements in samples() {
      var array = IdentifiedArrayOf<Item>(uniqueElements: elements)
      var control = elements
      array.sort(using: KeyPathComparator(\Item.score))
      control.sort(using: KeyPathComparator(\Item.score))
      #expect(Array(array) == control)
      expectConsistent(array)
    }
  }

  @Test func sortASlice() {
    var array = IdentifiedArrayOf<Item>(uniqueElements: samples()[5])
    var control = samples()[5]
    array[10..<40].sort()
    control[10..<40].sort()
    #expect(Array(array) == control)
    expectConsistent(array)
  }

  @Test func shuffleWithAGenerator() {
    for elements in samples() {
      var array = IdentifiedArrayOf<Item>(uniqueElements: elements)
      var control = elements
      var left = SplitMix(state: 3)
      var right = SplitMix(state: 3)
      array.shuffle(using: &left)
      control.shuffle(using: &right)
      #expect(Array(array) == control)
      expectConsistent(array)
    }
    var array = IdentifiedArrayOf<Item>(uniqueElements: samples()[6])
    array.shuffle()
    expectConsistent(array)
    #expect(Set(array.ids) == Set(0..<100))
  }

  @Test func partition() {
    var pair: IdentifiedArrayOf<Item> = [Item(id: 1, score: 0), Item(id: 2, score: 0)]
    #expect(pair.partition { $0.id == 1 } == 1)
    #expect(pair.ids == [2, 1])
    expectConsistent(pair)
    for elements in samples() {
      var array = IdentifiedArrayOf<Item>(uniqueElements: elements)
      var control = elements
      #expect(array.partition { $0.score > 0 } == control.partition { $0.score > 0 })
      #expect(Array(array) == control)
      expectConsistent(array)
    }
  }

  @Test func assigningAtAPosition() {
    let a = Item(id: 1, score: 1)
    let b = Item(id: 2, score: 2)
    let c = Item(id: 3, score: 3)
    var array: IdentifiedArrayOf<Item> = [a, b, c]
    // The same id: replaced in place.
    array[1] = Item(id: 2, score: 20)
    expectInvariants(array)
    #expect(array[id: 2]?.score == 20)
    // An id found elsewhere: it moves here, and the element that stood here takes its place.
    array[0] = c
    expectInvariants(array)
    #expect(array.ids == [3, 2, 1])
    #expect(array[id: 1] == a)
    // A new id: the element at the position is replaced.
    array[1] = Item(id: 4, score: 4)
    #expect(array.ids == [3, 4, 1])
    #expect(array[id: 2] == nil)
    expectConsistent(array)
  }

  @Test func stackStateScreensKeepTheirIDsWhenReordered() {
    var path = StackState<Int>([10, 20, 30])
    let ids = path.ids
    path.swapAt(0, 2)
    expectInvariants(path)
    #expect(Array(path) == [30, 20, 10])
    #expect(path.ids == [ids[2], ids[1], ids[0]])
    #expect(path[id: ids[0]] == 10)
    path.sort()
    expectInvariants(path)
    #expect(path.ids == ids)
    path.reverse()
    expectInvariants(path)
    #expect(path.ids == ids.reversed())
    #expect(path[id: ids[2]] == 30)
    path.sort(by: <)
    expectInvariants(path)
    #expect(path.ids == ids)
    _ = path.partition { $0 < 20 }
    expectInvariants(path)
    for id in ids { #expect(path[id: id] == 10 * (ids.firstIndex(of: id)! + 1)) }
    var generator = SplitMix(state: 11)
    path.shuffle(using: &generator)
    expectInvariants(path)
    for id in ids { #expect(path[id: id] == 10 * (ids.firstIndex(of: id)! + 1)) }
  }

  @Test func updateOrAppendReplacesByIDOrAppends() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1, score: 1), Item(id: 2, score: 2)]
    #expect(array.updateOrAppend(Item(id: 3, score: 3)) == nil)
    expectInvariants(array)
    #expect(array.ids == [1, 2, 3])
    #expect(array.updateOrAppend(Item(id: 1, score: 10)) == Item(id: 1, score: 1))
    #expect(array.ids == [1, 2, 3])
    #expect(array[id: 1]?.score == 10)
    expectConsistent(array)
  }

  @Test func removeAtOffsets() {
    var array = IdentifiedArrayOf<Item>(uniqueElements: samples()[4])
    array.remove(atOffsets: [0, 2, 9])
    #expect(array.ids == [1, 3, 4, 5, 6, 7, 8])
    expectConsistent(array)
    array.remove(atOffsets: [])
    expectInvariants(array)
    #expect(array.count == 7)
  }

  @Test func printsAndReflectsAsItsElements() {
    let array: IdentifiedArrayOf<Item> = [Item(id: 1, score: 5), Item(id: 2, score: 6)]
    #expect(array.description == Array(array).description)
    let mirror = Mirror(reflecting: array)
    #expect(mirror.displayStyle == .collection)
    #expect(mirror.children.allSatisfy { $0.label == nil })
    #expect(mirror.children.map { $0.value as? Item } == array.map { $0 })
    #expect(array.elements == Array(array))
  }

  @Test func initializersAgree() {
    let items = samples()[3]
    let literal: IdentifiedArrayOf<Item> = [items[0], items[1], items[2]]
    #expect(IdentifiedArrayOf<Item>(uniqueElements: items) == literal)
    #expect(IdentifiedArrayOf<Item>(uniqueElements: literal) == literal)
    #expect(IdentifiedArrayOf<Item>(uniqueElements: literal[...]) == literal)
    #expect(IdentifiedArray(uniqueElements: items, id: { $0.id }) == literal)
    #expect(IdentifiedArrayOf<Item>() == IdentifiedArray(id: { $0.id }))
  }
}
