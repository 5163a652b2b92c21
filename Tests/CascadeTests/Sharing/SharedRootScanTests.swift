import Testing

@testable import Cascade

// Issue 37 (S6x): a test store finds the shared values its state holds by walking the state,
// and skips every part whose type cannot hold one.

private struct Row: Equatable, Identifiable {
  var id = 0
  var title = ""
  var tags: [String] = []
  var scores: [String: Double] = [:]
}

private struct Plain {
  var rows: IdentifiedArray<Int, Row> = []
  var list: [Row] = []
  var optional: Row?
  var pair: (Int, String) = (0, "")
  var model: Model?
}

private final class Model {
  @Shared var hidden: Int
  init(_ hidden: Shared<Int>) { _hidden = hidden }
}

private struct WithShared {
  @Shared var count: Int
  var rows: [Row] = []
}

private enum Destination {
  case plain(Row)
  case shared(WithShared)
}

private indirect enum PlainDestination {
  case row(Row)
  case pair(Int, String)
  case nested(PlainDestination)
  case none
}

private enum Status { case idle, loading, done }

private struct Holder {
  var list: [WithShared] = []
  var keyed: [String: WithShared] = [:]
  var destination: Destination?
  var anything: Any = 0
  var presented = PresentationState<WithShared>(wrappedValue: nil)
  var stack = StackState<WithShared>()
}

@Suite struct SharedRootScanTests {
  @Test func aTypeOfPlainValuesCannotHoldAShared() {
    #expect(!_mayHoldShared(Row.self))
    #expect(!_mayHoldShared(Plain.self))
    #expect(!_mayHoldShared([Row].self))
    #expect(!_mayHoldShared(IdentifiedArray<Int, Row>.self))
    #expect(!_mayHoldShared(String.self))
  }

  @Test func aTypeThatCanHoldOneIsWalked() {
    #expect(_mayHoldShared(Shared<Int>.self))
    #expect(_mayHoldShared(WithShared.self))
    #expect(_mayHoldShared([WithShared].self))
    #expect(_mayHoldShared([String: WithShared].self))
    #expect(_mayHoldShared(WithShared?.self))
    #expect(_mayHoldShared(Holder.self))
    // An enum, by its cases' payloads; an existential, always.
    #expect(_mayHoldShared(Destination.self))
    #expect(!_mayHoldShared(PlainDestination.self))
    #expect(!_mayHoldShared(Status.self))
    #expect(_mayHoldShared(Any.self))
  }

  @Test func theWalkFindsASharedWhereverTheStateHoldsIt() {
    let roots = (0..<7).map { Shared(value: $0) }
    var holder = Holder()
    holder.list = [WithShared(count: roots[0])]
    holder.keyed = ["a": WithShared(count: roots[1])]
    holder.destination = .shared(WithShared(count: roots[2]))
    holder.anything = WithShared(count: roots[3])
    holder.presented = PresentationState(wrappedValue: WithShared(count: roots[4]))
    holder.stack = StackState([WithShared(count: roots[5])])
    let found = Set(_sharedRoots(in: holder).map(ObjectIdentifier.init))
    let expected = Set(roots.prefix(6).map { ObjectIdentifier($0._root) })
    #expect(found == expected)
  }

  @Test func aSharedBehindAClassIsNotFoundAsBefore() {
    var plain = Plain()
    plain.model = Model(Shared(value: 1))
    plain.rows = [Row(id: 1)]
    #expect(_sharedRoots(in: plain).isEmpty)
  }
}
