import Testing

@testable import Cascade

private enum Payload: Equatable { case text(String) }
private final class Reference: Sendable {}

private enum Action: Equatable, Sendable {
  case increment
  case setCount(Int)
  case setOther(Int)  // same payload type as setCount
  case setName(String)
  case element(id: Int, action: String)
  case triple(Int, String, Bool)
  case optional(Int?)
  indirect case nested(Action)
  case decrement
}

private indirect enum Tree: Equatable, Sendable {
  case leaf(Int)
  case node(Tree, Tree)
  case empty
}

private enum Generic<Value: Sendable>: Sendable {
  case value(Value)
  case nothing
  indirect case boxed(Value)
}

private enum WithExistential: Sendable {
  case failure(any Error & Sendable)
  case reference(Reference)
}

private struct SampleError: Error, Equatable {}

@Suite struct CasePathTests {
  @Test func extractsTheCaseItWasBuiltFrom() {
    let path = CasePath(Action.setCount)
    #expect(path.extract(from: .setCount(42)) == 42)
    #expect(path.extract(from: .increment) == nil)
    #expect(path.extract(from: .setName("x")) == nil)
    #expect(path.embed(7) == .setCount(7))
  }

  @Test func casesWithTheSamePayloadTypeStayApart() {
    let count = CasePath(Action.setCount)
    let other = CasePath(Action.setOther)
    // Each path sees the other case first, so both must have learned from a rejection.
    #expect(count.extract(from: .setOther(1)) == nil)
    #expect(other.extract(from: .setCount(2)) == nil)
    #expect(count.extract(from: .setCount(3)) == 3)
    #expect(other.extract(from: .setOther(4)) == 4)
    #expect(count.extract(from: .setOther(5)) == nil)
    #expect(other.extract(from: .setCount(6)) == nil)
  }

  @Test func payloadlessCases() {
    let increment = CasePath(Action.increment)
    #expect(increment.matches(.increment))
    #expect(!increment.matches(.decrement))
    #expect(!increment.matches(.setCount(0)))
    #expect(increment.embed(()) == .increment)
    let decrement = CasePath(Action.decrement)
    #expect(decrement.matches(.decrement))
    #expect(!decrement.matches(.increment))
  }

  @Test func multiPayloadCases() {
    let element = CasePath(Action.element)
    let extracted = element.extract(from: .element(id: 3, action: "tap"))
    #expect(extracted?.0 == 3)
    #expect(extracted?.1 == "tap")
    #expect(element.extract(from: .setCount(3)) == nil)
    #expect(element.embed((1, "x")) == .element(id: 1, action: "x"))

    let triple = CasePath(Action.triple)
    let value = triple.extract(from: .triple(1, "two", true))
    #expect(value?.0 == 1 && value?.1 == "two" && value?.2 == true)
  }

  @Test func indirectCases() {
    let nested = CasePath(Action.nested)
    #expect(nested.extract(from: .nested(.setName("deep"))) == .setName("deep"))
    #expect(nested.extract(from: .nested(.nested(.increment))) == .nested(.increment))
    #expect(nested.extract(from: .increment) == nil)

    // A wholly indirect enum with a multi-payload case.
    let node = CasePath(Tree.node)
    let children = node.extract(from: .node(.leaf(1), .node(.leaf(2), .empty)))
    #expect(children?.0 == .leaf(1))
    #expect(children?.1 == .node(.leaf(2), .empty))
    #expect(CasePath(Tree.leaf).extract(from: .leaf(9)) == 9)
    #expect(CasePath(Tree.leaf).extract(from: .empty) == nil)
    #expect(CasePath(Tree.empty).matches(.empty))
  }

  @Test func genericOptionalAndReferencePayloads() {
    #expect(CasePath(Generic<String>.value).extract(from: .value("a")) == "a")
    #expect(CasePath(Generic<String>.value).extract(from: .nothing) == nil)
    #expect(CasePath(Generic<[Int]>.boxed).extract(from: .boxed([1, 2])) == [1, 2])
    #expect(CasePath(Generic<[Int]>.boxed).extract(from: .value([1, 2])) == nil)

    let optional = CasePath(Action.optional)
    #expect(optional.extract(from: .optional(nil)) == .some(nil))
    #expect(optional.extract(from: .optional(5)) == .some(5))
    #expect(optional.extract(from: .setCount(5)) == nil)

    let reference = Reference()
    #expect(CasePath(WithExistential.reference).extract(from: .reference(reference)) === reference)
    let failure = CasePath(WithExistential.failure).extract(from: .failure(SampleError()))
    #expect(failure as? SampleError == SampleError())
  }

  @Test func heapPayloadsSurviveRepeatedExtraction() {
    // Extraction copies the payload out of a temporary; the original must stay intact.
    let path = CasePath(Action.setName)
    let action = Action.setName(String(repeating: "long heap string ", count: 10))
    for _ in 0..<1_000 { _ = path.extract(from: action) }
    #expect(path.extract(from: action) == String(repeating: "long heap string ", count: 10))
    #expect(action == .setName(String(repeating: "long heap string ", count: 10)))
  }

  @Test func composesIntoNestedPaths() {
    let deep = CasePath(Action.nested).appending(path: CasePath(Action.setCount))
    #expect(deep.extract(from: .nested(.setCount(8))) == 8)
    #expect(deep.extract(from: .nested(.setName("x"))) == nil)
    #expect(deep.extract(from: .setCount(8)) == nil)
    #expect(deep.embed(2) == .nested(.setCount(2)))
  }

  @Test func explicitPathsAndPatternMatching() {
    let even = CasePath<Action, Int>(
      embed: { .setCount($0) },
      extract: { if case let .setCount(n) = $0, n.isMultiple(of: 2) { n } else { nil } })
    #expect(even.extract(from: .setCount(4)) == 4)
    #expect(even.extract(from: .setCount(3)) == nil)

    switch Action.decrement {
    case CasePath(Action.increment): Issue.record("matched the wrong case")
    case CasePath(Action.decrement): break
    default: Issue.record("matched no case")
    }
  }

  @Test func looksUpOncePerCaseNotPerExtraction() {
    let path = CasePath(Action.setCount)
    let lookups = _CaseLookupCounter.counting {
      for index in 0..<10_000 {
        // Other cases first: each is rejected by a metadata lookup once, before the match is
        // known; after it, every other case is rejected by its tag alone.
        _ = path.extract(from: .setName("x"))
        _ = path.extract(from: .increment)
        _ = path.extract(from: .setCount(index))
      }
    }
    // Three for this path (one per case), never one per extraction.
    #expect(lookups == 3)
  }
}
