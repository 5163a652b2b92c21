import Testing

@testable import Cascade

/// Records a test failure for each way `array`'s storage is inconsistent (its positions table,
/// its change log): what every test of a mutation checks after it.
func expectInvariants<ID, Element>(
  _ array: IdentifiedArray<ID, Element>, _ comment: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let violations = array._invariantViolations()
  #expect(violations == [], "\(comment())", sourceLocation: sourceLocation)
}

/// The same, for a stack's screens.
func expectInvariants<Element>(
  _ stack: StackState<Element>, _ comment: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectInvariants(stack._entries, comment(), sourceLocation: sourceLocation)
}

private struct Card: Identifiable, Equatable {
  let id: Int
  var rank: Int
}

/// A seeded generator, so a failing run can be replayed from its seed.
private struct Xorshift: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
}

@Suite struct IdentifiedArrayInvariantTests {
  @Test func theChecksAreOnInTheTests() {
    #expect(IdentifiedArrayOf<Card>._isConsistencyCheckingEnabled)
  }

  // The check catches a broken positions table: each corruption below is one a mutator that
  // forgot a reindex would leave.
  @Test func aPositionsTableThatLeadsAnIDElsewhereIsCaught() {
    var cards = IdentifiedArrayOf<Card>(uniqueElements: (0..<4).map { Card(id: $0, rank: $0) })
    expectInvariants(cards)
    cards._positions[2] = 0
    #expect(cards._invariantViolations() == ["the id 2 leads to 0, its element is at 2"])
  }

  @Test func aPositionsTableWithAnEntryTooFewOrTooManyIsCaught() {
    var missing = IdentifiedArrayOf<Card>(uniqueElements: (0..<3).map { Card(id: $0, rank: 0) })
    missing._positions[1] = nil
    #expect(
      missing._invariantViolations() == [
        "the positions table has 2 entries for 3 elements",
        "the id 1, at 1, is not in the positions table",
      ])
    var stale = IdentifiedArrayOf<Card>(uniqueElements: (0..<3).map { Card(id: $0, rank: 0) })
    stale._positions[9] = 3
    #expect(stale._invariantViolations() == ["the positions table has 4 entries for 3 elements"])
  }

  @Test func aDuplicateIDIsCaught() {
    var cards = IdentifiedArrayOf<Card>(uniqueElements: (0..<3).map { Card(id: $0, rank: 0) })
    // Written past the array's own checks, as a broken mutator would.
    cards._elements[2] = Card(id: 0, rank: 0)
    let violations = cards._invariantViolations()
    #expect(
      violations == [
        "the id 0 appears twice (again at 2)", "the id 0 leads to 0, its element is at 2",
      ])
  }

  @Test func aLogOutOfOrderOrAnUnexpectedElementChangeIsCaught() {
    var cards = IdentifiedArrayOf<Card>(uniqueElements: (0..<3).map { Card(id: $0, rank: 0) })
    cards._log.record(.modified(1), at: cards._stamp)
    #expect(
      cards._invariantViolations() == [
        "log entry 0's stamp \(cards._stamp) is not before \(cards._stamp)",
        "log entry 0 is an element change, but the log of those is off",
      ])
  }

  /// Random mutations of every kind, on an identified array beside a plain array of the same
  /// elements: after each, the storage is consistent and the elements are the plain array's.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64], [false, true])
  func randomMutationsKeepTheStorageConsistent(seed: UInt64, logging: Bool) {
    var random = Xorshift(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
    var cards = IdentifiedArrayOf<Card>()
    if logging { cards._startLoggingElementChanges() }
    var model: [Card] = []
    var nextID = 0
    func position(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }
    for step in 0..<400 {
      let operation = random.next() % 16
      switch operation {
      case 0, 1:
        let card = Card(id: nextID, rank: Int(random.next() % 10))
        nextID += 1
        cards.append(card)
        model.append(card)
      case 2:
        let card = Card(id: nextID, rank: 0)
        nextID += 1
        let index = Int(random.next() % UInt64(model.count + 1))
        cards.insert(card, at: index)
        model.insert(card, at: index)
      case 3 where !model.isEmpty:
        let index = position(model.count)
        #expect(cards.remove(at: index) == model.remove(at: index))
      case 4 where !model.isEmpty:
        let id = model[position(model.count)].id
        cards.remove(id: id)
        model.removeAll { $0.id == id }
      case 5 where !model.isEmpty:
        let id = model[position(model.count)].id
        cards[id: id]?.rank += 1
        model[model.firstIndex { $0.id == id }!].rank += 1
      case 6 where !model.isEmpty:
        let index = position(model.count)
        cards[index].rank -= 1
        model[index].rank -= 1
      case 7 where !model.isEmpty:
        let (i, j) = (position(model.count), position(model.count))
        cards.swapAt(i, j)
        model.swapAt(i, j)
      case 8:
        cards.sort { $0.rank < $1.rank || ($0.rank == $1.rank && $0.id < $1.id) }
        model.sort { $0.rank < $1.rank || ($0.rank == $1.rank && $0.id < $1.id) }
      case 9 where !model.isEmpty:
        let offsets = Set((0..<1 + position(3)).map { _ in position(model.count) })
        let destination = Int(random.next() % UInt64(model.count + 1))
        cards.move(fromOffsets: offsets, toOffset: destination)
        let moving = offsets.sorted().map { model[$0] }
        let before = offsets.filter { $0 < destination }.count
        for index in offsets.sorted(by: >) { model.remove(at: index) }
        model.insert(contentsOf: moving, at: destination - before)
      case 10 where !model.isEmpty:
        let offsets = Set((0..<1 + position(3)).map { _ in position(model.count) })
        cards.remove(atOffsets: offsets)
        model = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
      case 11:
        let rank = Int(random.next() % 10)
        cards.removeAll { $0.rank == rank }
        model.removeAll { $0.rank == rank }
      case 12 where !model.isEmpty:
        // Assigning at a position an element whose id is elsewhere, or a new one.
        let index = position(model.count)
        let card =
          random.next() % 2 == 0
          ? model[position(model.count)] : Card(id: nextID, rank: 0)
        if card.id == nextID { nextID += 1 }
        cards[index] = card
        if let other = model.firstIndex(where: { $0.id == card.id }) {
          model.swapAt(index, other)
        }
        model[index] = card
      case 13:
        let card = Card(id: Int(random.next() % UInt64(nextID + 1)), rank: 7)
        if card.id == nextID { nextID += 1 }
        cards.updateOrAppend(card)
        if let index = model.firstIndex(where: { $0.id == card.id }) {
          model[index] = card
        } else {
          model.append(card)
        }
      case 14:
        cards.reverse()
        model.reverse()
      case 15 where model.count > 20:
        cards.removeAll()
        model.removeAll()
      default:
        continue
      }
      expectInvariants(cards, "seed \(seed) step \(step), operation \(operation)")
      #expect(Array(cards) == model, "seed \(seed) step \(step), operation \(operation)")
      if Array(cards) != model || !cards._invariantViolations().isEmpty { break }
    }
  }
}
