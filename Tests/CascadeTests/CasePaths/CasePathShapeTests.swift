import CascadeTesting
import Foundation
import Testing

@testable import Cascade

// Every shape of enum case a TCA user writes, extracted through a path built from the case
// constructor alone. Each path is asked twice: the first extraction takes the slow path (the
// enum's metadata), the second the cached tag compare, and both must agree.

private protocol Shape: Sendable {}
extension Int: Shape {}
private class Base: @unchecked Sendable {}  // no stored state
private final class Derived: Base, @unchecked Sendable {}  // no stored state
private struct Empty: Equatable, Sendable {}
private enum Never2 {}
private struct Failure: Error, Equatable {}

private enum Labeled: Equatable, Sendable {
  case labeled(id: Int)
  case pair(id: Int, name: String)
  case unlabeled(Int)
  case other(id: Int)
  case payload(a: Int)
  case payload(b: Int)
  case none
}

private enum Layouts: Sendable {
  case bool(Bool)
  case int(Int)
  case void(Void)
  case empty(Empty)
  case text(String)
  case any(any Sendable)
  case shape(any Shape)
  case error(any Error & Sendable)
  case object(AnyObject & Sendable)
  case base(Base)
  case function(@Sendable (Int) -> Int)
  case tuple((Int, String))
  case optional(Int?)
  case never(Never)
  case defaults(Int, flag: Bool = false)
  case bare
}

private enum OneCase: Equatable, Sendable { case only }

/// Payloads that take no space sit among the cases without one in the compiler's numbering.
private enum ZeroSized: Equatable, Sendable {
  case void(Void)
  case int(Int)
  case empty(Empty)
  case oneCase(OneCase)
  case bare
  case text(String)
  case pair(Void, Empty)
  static func == (lhs: Self, rhs: Self) -> Bool { "\(lhs)" == "\(rhs)" }
}

private enum Indirect: Equatable, Sendable {
  indirect case boxed(Int)
  case direct(Int)
  indirect case compound(Int, String?, Int, [Int])
  indirect case recursive(Indirect)
  case leaf
}

private enum Outer: Equatable, Sendable {
  enum Inner: Equatable, Sendable {
    case value(Int)
    case name(first: String)
  }
  case inner(Inner)
  case count(Int)
}

private enum Generic<A: Sendable, B: Sendable>: Sendable {
  case first(A)
  case second(B)
  case both(A, label: B)
  indirect case boxed(A)
  case nothing
}

/// An enum that hides its payload from reflection, as one holding a password would.
private enum Secret: Equatable, Sendable, CustomReflectable {
  case password(String)
  case token(id: Int)
  case signedOut
  var customMirror: Mirror { Mirror(self, children: ["redacted": true]) }
}

private func twice<Root, Value>(
  _ path: CasePath<Root, Value>, _ root: Root
) -> (Value?, Value?) {
  (path.extract(from: root), path.extract(from: root))
}

@Suite struct CasePathShapeTests {
  @Test func oneLabeledPayloadMatches() {
    let labeled = CasePath(Labeled.labeled)
    #expect(twice(labeled, .labeled(id: 1)) == (1, 1))
    #expect(twice(labeled, .other(id: 1)) == (nil, nil))
    #expect(twice(labeled, .unlabeled(1)) == (nil, nil))
    #expect(labeled.embed(5) == .labeled(id: 5))
    let unlabeled = CasePath(Labeled.unlabeled)
    #expect(twice(unlabeled, .labeled(id: 2)) == (nil, nil))
    #expect(twice(unlabeled, .unlabeled(2)) == (2, 2))
  }

  @Test func casesOverloadedByLabelStayApart() {
    let a = CasePath(Labeled.payload(a:))
    let b = CasePath(Labeled.payload(b:))
    #expect(twice(a, .payload(b: 1)) == (nil, nil))
    #expect(twice(b, .payload(a: 2)) == (nil, nil))
    #expect(twice(a, .payload(a: 3)) == (3, 3))
    #expect(twice(b, .payload(b: 4)) == (4, 4))
  }

  @Test func severalPayloadsLabeledOrNot() {
    let pair = CasePath(Labeled.pair)
    let value = pair.extract(from: .pair(id: 7, name: "seven"))
    #expect(value?.0 == 7 && value?.1 == "seven")
    #expect(pair.extract(from: .labeled(id: 7)) == nil)
    #expect(pair.embed((1, "one")) == .pair(id: 1, name: "one"))
    let tuple = CasePath(Layouts.tuple)
    let extracted = tuple.extract(from: .tuple((1, "x")))
    #expect(extracted?.0 == 1 && extracted?.1 == "x")
    let defaults = CasePath(Layouts.defaults)
    let withDefault = defaults.extract(from: .defaults(4))
    #expect(withDefault?.0 == 4 && withDefault?.1 == false)
  }

  @Test func payloadsOfEveryLayout() throws {
    #expect(twice(CasePath(Layouts.bool), .bool(true)) == (true, true))
    #expect(twice(CasePath(Layouts.bool), .int(1)) == (nil, nil))
    #expect(twice(CasePath(Layouts.int), .bool(true)) == (nil, nil))
    #expect(CasePath(Layouts.void).extract(from: .void(())) != nil)
    #expect(CasePath(Layouts.void).extract(from: .empty(Empty())) == nil)
    #expect(CasePath(Layouts.empty).extract(from: .empty(Empty())) == Empty())
    #expect(CasePath(Layouts.empty).extract(from: .void(())) == nil)
    #expect(twice(CasePath(Layouts.text), .text("가나다 🍜")) == ("가나다 🍜", "가나다 🍜"))
    #expect(twice(CasePath(Layouts.optional), .optional(nil)) == (.some(nil), .some(nil)))
    #expect(CasePath(Layouts.optional).extract(from: .optional(3)) == .some(3))
    #expect(CasePath(Layouts.never).extract(from: .bare) == nil)
    #expect(CasePath(Layouts.bare).matches(.bare))
    #expect(!CasePath(Layouts.bare).matches(.int(0)))
  }

  @Test func zeroSizedPayloadsBesideOthersMatchOnlyTheirOwnCase() {
    let values: [ZeroSized] = [
      .void(()), .int(1), .empty(Empty()), .oneCase(.only), .bare, .text("t"), .pair((), Empty()),
    ]
    let paths: [(ZeroSized) -> Bool] = [
      { CasePath(ZeroSized.void).extract(from: $0) != nil },
      { CasePath(ZeroSized.int).extract(from: $0) != nil },
      { CasePath(ZeroSized.empty).extract(from: $0) != nil },
      { CasePath(ZeroSized.oneCase).extract(from: $0) != nil },
      { CasePath(ZeroSized.bare).matches($0) },
      { CasePath(ZeroSized.text).extract(from: $0) != nil },
      { CasePath(ZeroSized.pair).extract(from: $0) != nil },
    ]
    for (row, path) in paths.enumerated() {
      for (column, value) in values.enumerated() {
        #expect(path(value) == (row == column), "path \(row) on \(value)")
      }
    }
    #expect(CasePath(ZeroSized.int).extract(from: .int(5)) == 5)
    #expect(CasePath(ZeroSized.text).extract(from: .text("가")) == "가")
  }

  @Test func existentialPayloads() throws {
    let any = CasePath(Layouts.any)
    #expect(any.extract(from: .any("blob")) as? String == "blob")
    #expect(any.extract(from: .int(1)) == nil)
    let shape = CasePath(Layouts.shape)
    #expect(shape.extract(from: .shape(42)) as? Int == 42)
    #expect(shape.extract(from: .any(42)) == nil)
    let error = CasePath(Layouts.error)
    #expect(error.extract(from: .error(Failure())) as? Failure == Failure())
    let object = CasePath(Layouts.object)
    let instance = Base()
    #expect(try #require(object.extract(from: .object(instance))) as AnyObject === instance)
    let derived = Derived()
    #expect(try #require(object.extract(from: .object(derived))) as AnyObject === derived)
    // A subclass instance in a case declared with its superclass.
    let base = CasePath(Layouts.base)
    #expect(base.extract(from: .base(derived)) === derived)
    #expect(base.extract(from: .object(derived)) == nil)
  }

  @Test func functionPayloadsAreRefusedOnceWithTheWayOut() async throws {
    // Swift stores a function payload with its natural calling convention; generic code cannot
    // call it. A constructor-built path says so instead of handing out a function that crashes.
    let (_, warnings) = await RuntimeWarnings.capturing {
      let function = CasePath(Layouts.function, fileID: "Feature.swift", line: 3)
      #expect(function.extract(from: .function { $0 * 2 }) == nil)
      #expect(function.extract(from: .function { $0 * 3 }) == nil)
      #expect(function.extract(from: .bare) == nil)
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.line == 3)
    #expect(warnings.first?.message.contains("if case let") == true)
    // The generic case of a generic enum stores it the general way: that one works.
    typealias G = Generic<@Sendable (Int) -> Int, Int>
    let generic = try #require(CasePath(G.first).extract(from: .first { $0 * 2 }))
    #expect(generic(21) == 42)
    // And the hand-written path the warning suggests works for any enum.
    let handWritten = CasePath<Layouts, @Sendable (Int) -> Int>(
      embed: Layouts.function,
      extract: { if case let .function(value) = $0 { value } else { nil } })
    let extracted = try #require(handWritten.extract(from: .function { $0 * 2 }))
    #expect(extracted(21) == 42)
  }

  @Test func indirectCases() {
    #expect(twice(CasePath(Indirect.boxed), .boxed(1)) == (1, 1))
    #expect(twice(CasePath(Indirect.boxed), .direct(1)) == (nil, nil))
    #expect(twice(CasePath(Indirect.direct), .boxed(2)) == (nil, nil))
    #expect(twice(CasePath(Indirect.direct), .direct(2)) == (2, 2))
    let recursive = CasePath(Indirect.recursive)
    #expect(recursive.extract(from: .recursive(.recursive(.leaf))) == .recursive(.leaf))
    let compound = CasePath(Indirect.compound)
    let value = compound.extract(from: .compound(1, nil, 3, [4, 5]))
    #expect(value?.0 == 1 && value?.1 == nil && value?.2 == 3 && value?.3 == [4, 5])
    #expect(compound.extract(from: .direct(1)) == nil)
  }

  /// Once a path has met its `indirect` case, it reads the payload in its box where the enum
  /// keeps the box's address untouched: the payload read must be whole, aligned and its own
  /// copy, outliving the enum it came from.
  @Test func indirectPayloadsReadInTheirBoxOnceLearned() {
    let compound = CasePath(Indirect.compound)
    var extracted: [(Int, String?, Int, [Int])] = []
    for round in 0..<3 {
      // Made fresh each round, and gone before the payload is read.
      let root = Indirect.compound(round, "name \(round)", -round, Array(0...round))
      extracted.append(try! #require(compound.extract(from: root)))
    }
    for (round, value) in extracted.enumerated() {
      #expect(value.0 == round && value.1 == "name \(round)" && value.2 == -round)
      #expect(value.3 == Array(0...round))
    }
    let recursive = CasePath(Indirect.recursive)
    for _ in 0..<3 {
      #expect(recursive.extract(from: .recursive(.boxed(7))) == .boxed(7))
      #expect(recursive.extract(from: .boxed(7)) == nil)
    }
    typealias G = Generic<[String], Int>
    let boxed = CasePath(G.boxed)
    for round in 0..<3 {
      #expect(boxed.extract(from: .boxed(["a", "\(round)"])) == ["a", "\(round)"])
      #expect(boxed.extract(from: .second(round)) == nil)
    }
  }

  @Test func genericAndNestedEnums() {
    typealias G = Generic<String, Int>
    #expect(twice(CasePath(G.first), .first("a")) == ("a", "a"))
    #expect(twice(CasePath(G.first), .second(1)) == (nil, nil))
    #expect(twice(CasePath(G.second), .second(2)) == (2, 2))
    #expect(twice(CasePath(G.boxed), .boxed("b")) == ("b", "b"))
    let both = CasePath(G.both).extract(from: .both("x", label: 9))
    #expect(both?.0 == "x" && both?.1 == 9)
    // The same generic enum with both parameters alike: cases stay apart by the constructor.
    typealias Same = Generic<Int, Int>
    #expect(CasePath(Same.first).extract(from: .second(1)) == nil)
    #expect(CasePath(Same.second).extract(from: .second(1)) == 1)

    let inner = CasePath(Outer.inner).appending(path: CasePath(Outer.Inner.name))
    #expect(inner.extract(from: .inner(.name(first: "Kim"))) == "Kim")
    #expect(inner.extract(from: .inner(.value(1))) == nil)
    #expect(inner.extract(from: .count(1)) == nil)
    #expect(inner.embed("Lee") == .inner(.name(first: "Lee")))
    let optional = CasePath(Optional<Int>.some)
    #expect(optional.extract(from: 3) == 3)
    #expect(optional.extract(from: nil) == nil)
  }

  @Test func aCustomMirrorDoesNotHideTheCase() {
    let password = CasePath(Secret.password)
    let token = CasePath(Secret.token)
    #expect(twice(password, .password("hunter2")) == ("hunter2", "hunter2"))
    #expect(twice(password, .token(id: 1)) == (nil, nil))
    #expect(twice(token, .token(id: 8)) == (8, 8))
    #expect(twice(token, .signedOut) == (nil, nil))
  }

  @Test func theSlowPathRunsOncePerCaseWhateverTheShape() {
    let path = CasePath(Labeled.labeled)
    let lookups = _CaseLookupCounter.counting {
      for id in 0..<1_000 {
        _ = path.extract(from: .none)
        _ = path.extract(from: .unlabeled(id))
        _ = path.extract(from: .labeled(id: id))
      }
    }
    #expect(lookups == 3)
  }

  @Test func aPathThatCanNeverMatchIsReportedOnceWithItsPlace() async {
    // A closure building a nested case is not a case constructor of Outer: no case of Outer
    // holds a String, so the path extracts nothing, and says so.
    let (_, warnings) = await RuntimeWarnings.capturing {
      let path = CasePath<Outer, String>(
        { .inner(.name(first: $0)) }, fileID: "Feature.swift", line: 7)
      for _ in 0..<3 {
        #expect(path.extract(from: .inner(.name(first: "Kim"))) == nil)
        #expect(path.extract(from: .count(1)) == nil)
      }
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.fileID == "Feature.swift")
    #expect(warnings.first?.line == 7)
    #expect(warnings.first?.message.contains("can never match") == true)
    #expect(warnings.first?.message.contains("CasePath(embed:extract:)") == true)
  }

  @Test func aPathThatMatchesSomeCaseIsNotReported() async {
    let (_, warnings) = await RuntimeWarnings.capturing {
      let path = CasePath(Outer.count, fileID: "Feature.swift", line: 9)
      #expect(path.extract(from: .inner(.value(1))) == nil)
      #expect(path.extract(from: .count(1)) == 1)
    }
    #expect(warnings.isEmpty)
  }

  @Test func stackActionPopFromMatches() {
    let popFrom = CasePath(StackAction<Int, Never>.popFrom)
    #expect(
      popFrom.extract(from: .popFrom(id: StackElementID(rawValue: 3)))
        == StackElementID(rawValue: 3))
    #expect(popFrom.extract(from: .push(id: StackElementID(rawValue: 3), state: 1)) == nil)
  }
}

/// Payloads whose spare bits hold the enum's tag: a class reference keeps its case in the
/// pointer's unused high bits, and a `String` in its own spare bits. Only the first case's tag
/// is all zeros there.
private final class Ref: @unchecked Sendable {  // immutable
  let value: Int
  init(_ value: Int) { self.value = value }
}

private enum SpareBits: Sendable {
  case first(Ref)
  case second(Ref)
  case third(Ref)
  case bare
}

/// A `String` beside references: their common spare bits (if any) hold the tag.
private enum Mixed: Sendable {
  case text(String)
  case ref(Ref)
  case other(Ref)
}

/// One payload case beside empty ones, stored in the payload's extra inhabitants.
private enum SinglePayload: Equatable, Sendable {
  case value(String)
  case loading
  case failed
}

/// An enum of one case: the shape of a feature that wraps another.
private enum Wrapper: Equatable, Sendable { case child(Labeled) }

@Suite struct CasePathInPlaceTests {
  // After its first meeting with a case, a path reads a payload that carries no tag bits where
  // it lies, and projects any other out of a copy. Both must give the payload, for every value.

  @Test func payloadsHoldingTheTagInTheirSpareBitsComeOutWhole() {
    let boxes = (0..<100).map(Ref.init)
    let first = CasePath(SpareBits.first)
    let second = CasePath(SpareBits.second)
    let third = CasePath(SpareBits.third)
    let text = CasePath(Mixed.text)
    let other = CasePath(Mixed.other)
    for box in boxes {
      #expect(first.extract(from: .first(box)) === box)
      #expect(second.extract(from: .second(box)) === box)
      #expect(third.extract(from: .third(box)) === box)
      #expect(first.extract(from: .third(box)) == nil)
      #expect(third.extract(from: .first(box)) == nil)
      #expect(second.extract(from: .bare) == nil)
      let string = "행 \(box.value) " + String(repeating: "🍜", count: box.value % 7)
      #expect(text.extract(from: .text(string)) == string)
      #expect(text.extract(from: .other(box)) == nil)
      #expect(other.extract(from: .other(box)) === box)
      #expect(other.extract(from: .ref(box)) == nil)
    }
    // Every extraction copied a reference it now shares: an unbalanced one would free a box.
    #expect(boxes.map(\.value) == Array(0..<100))
  }

  @Test func whichPayloadsAreReadInPlace() throws {
    // The premise: the tag is kept in the references' spare bits, not in a byte of its own.
    #expect(MemoryLayout<SpareBits>.size == MemoryLayout<Ref>.size)
    let metadata = try #require(_EnumMetadata(SpareBits.self))
    let box = Ref(1)
    // Tag zero in the spare bits: the payload is as it was.
    #expect(metadata.projectionKeepsPayload(of: SpareBits.first(box), as: Ref.self))
    // Any other tag is in the pointer's bits: it must be projected out.
    #expect(!metadata.projectionKeepsPayload(of: SpareBits.third(box), as: Ref.self))
    let single = try #require(_EnumMetadata(SinglePayload.self))
    #expect(single.projectionKeepsPayload(of: SinglePayload.value("v"), as: String.self))
    let wrapper = try #require(_EnumMetadata(Wrapper.self))
    #expect(wrapper.projectionKeepsPayload(of: Wrapper.child(.labeled(id: 3)), as: Labeled.self))
  }

  @Test func resultsCasesComeOutOfAGenericEnumLaidOutAtRunTime() throws {
    struct Failure: Error, Equatable {
      let code: Int
    }
    let success = CasePath(Result<Int, Failure>.success)
    let failure = CasePath(Result<Int, Failure>.failure)
    for value in 0..<50 {
      #expect(success.extract(from: .success(value)) == value)
      #expect(success.extract(from: .failure(Failure(code: value))) == nil)
      #expect(failure.extract(from: .failure(Failure(code: value))) == Failure(code: value))
      #expect(failure.extract(from: .success(value)) == nil)
    }
    // An existential payload, as a `Result<Any, Error>` of an effect's response holds.
    let anySuccess = CasePath(Result<any Sendable, any Error>.success)
    for value in 0..<50 {
      let extracted = anySuccess.extract(from: .success("\(value)"))
      #expect(extracted as? String == "\(value)")
      #expect(anySuccess.extract(from: .failure(Failure(code: value))) == nil)
    }
  }

  @Test func singlePayloadAndSoleCaseEnums() {
    let value = CasePath(SinglePayload.value)
    for index in 0..<50 {
      #expect(value.extract(from: .value("\(index)")) == "\(index)")
      #expect(value.extract(from: .loading) == nil)
      #expect(value.extract(from: .failed) == nil)
    }
    let child = CasePath(Wrapper.child)
    for id in 0..<50 {
      #expect(child.extract(from: .child(.labeled(id: id))) == .labeled(id: id))
      #expect(child.extract(from: .child(.none)) == Labeled.none)
      #expect(child.extract(from: .child(.pair(id: id, name: "n"))) == .pair(id: id, name: "n"))
    }
  }
}

/// A screen enum whose cases carry one labeled payload: the shape the issue saw drop actions.
private struct Counter: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

private struct Screen: Reducer {
  enum State: Equatable, Sendable {
    case counter(child: Counter.State)
    case blank
  }
  enum Action: Equatable, Sendable { case counter(child: Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: State.counter, action: Action.counter) { Counter() }
  }
}

@Suite struct CasePathScopeTests {
  @MainActor @Test func scopeOverLabeledCasesRunsTheChild() async {
    let (_, warnings) = await RuntimeWarnings.capturing {
      let store = Store(initialState: Screen.State.counter(child: Counter.State())) { Screen() }
      store.send(.counter(child: .increment))
      store.send(.counter(child: .increment))
      #expect(store.state == .counter(child: Counter.State(count: 2)))
    }
    #expect(warnings.isEmpty)
  }

  @MainActor @Test func scopeOverLabeledCasesRunsTheChildInATestStore() async {
    let store = TestStore(initialState: Screen.State.counter(child: Counter.State())) { Screen() }
    await store.send(.counter(child: .increment)) { $0 = .counter(child: Counter.State(count: 1)) }
    await store.send(.counter(child: .increment)) { $0 = .counter(child: Counter.State(count: 2)) }
    await store.finish()
  }
}
