import Testing

@testable import Cascade

/// The runner's table of running tasks (`_TokenTable`): whatever order tasks register and end
/// in, each one is found by its token exactly once, and a cancellation sees every live one.
/// The table is checked against a plain dictionary doing the same operations.
@Suite struct TokenTableTests {
  /// Every live value, in the table's own order.
  private func values(_ table: _TokenTable<Int>) -> [Int] {
    var values: [Int] = []
    table.visitValues { values.append($0) }
    return values
  }

  @Test func tasksEndingInOrderOrOutOfOrderAreEachFoundOnce() {
    var table = _TokenTable<Int>()
    for token: UInt64 in 0..<10 { table.insert(Int(token) * 10, at: token) }
    #expect(table.count == 10)
    #expect(table.remove(3) == 30)
    #expect(table.remove(3) == nil)
    #expect(table.remove(0) == 0)
    #expect(table.remove(1) == 10)
    #expect(table.count == 7)
    #expect(values(table).sorted() == [20, 40, 50, 60, 70, 80, 90])
    for token: UInt64 in [9, 2, 8, 4, 7, 6, 5] { #expect(table.remove(token) == Int(token) * 10) }
    #expect(table.count == 0)
    #expect(values(table).isEmpty)
  }

  @Test func aTokenRegisteredAfterLaterOnesEndedIsStillFound() {
    var table = _TokenTable<Int>()
    // Token 1 is reserved first but registers last, after 2 and 3 have come and gone.
    table.insert(2, at: 2)
    table.insert(3, at: 3)
    #expect(table.remove(2) == 2)
    #expect(table.remove(3) == 3)
    table.insert(4, at: 4)
    table.insert(1, at: 1)
    #expect(table.count == 2)
    #expect(values(table).sorted() == [1, 4])
    #expect(table.remove(1) == 1)
    #expect(table.remove(4) == 4)
    #expect(table.count == 0)
  }

  @Test func aTokenFarAheadOfTheOthersIsFound() {
    var table = _TokenTable<Int>()
    table.insert(0, at: 0)
    table.insert(1, at: 1_000_000)
    #expect(values(table).sorted() == [0, 1])
    #expect(table.remove(1_000_000) == 1)
    #expect(table.remove(0) == 0)
    #expect(table.count == 0)
  }

  @Test func aLongRandomRunAgreesWithADictionary() {
    var table = _TokenTable<Int>()
    var model: [UInt64: Int] = [:]
    var generator = SeededGenerator(seed: 49)
    var next: UInt64 = 0
    var reserved: [UInt64] = []
    for step in 0..<50_000 {
      switch generator.next() % 10 {
      case 0..<4:
        // Reserve a token; most register at once, some later.
        reserved.append(next)
        next += 1
      case 4..<7:
        guard !reserved.isEmpty else { continue }
        let token = reserved.remove(at: Int(generator.next() % UInt64(reserved.count)))
        table.insert(step, at: token)
        model[token] = step
      default:
        guard let token = model.keys.randomElement(using: &generator) else { continue }
        #expect(table.remove(token) == model.removeValue(forKey: token))
      }
      #expect(table.count == model.count)
    }
    #expect(values(table).sorted() == model.values.sorted())
    for token in model.keys { #expect(table.remove(token) == model[token]) }
    #expect(table.count == 0)
  }
}
