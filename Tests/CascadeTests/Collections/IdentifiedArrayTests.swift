import Foundation
import Testing

@testable import Cascade

private struct Todo: Identifiable, Equatable, Hashable, Codable, Sendable {
  let id: Int
  var title: String
}

@Suite struct IdentifiedArrayTests {
  private let milk = Todo(id: 1, title: "Milk")
  private let eggs = Todo(id: 2, title: "Eggs")
  private let tea = Todo(id: 3, title: "Tea")

  @Test func filterReturnsAnIdentifiedArray() {
    let todos: IdentifiedArrayOf<Todo> = [milk, eggs, tea]
    let kept = todos.filter { $0.id != 2 }
    #expect(kept.ids == [1, 3])
    #expect(kept[id: 3] == tea)
    #expect(kept[id: 2] == nil)
    // An Array where the context asks for one.
    let array: [Todo] = todos.filter { $0.id == 2 }
    #expect(array == [eggs])
  }

  @Test func keepsOrderAndFindsByID() {
    let todos: IdentifiedArrayOf<Todo> = [milk, eggs, tea]
    #expect(todos.map(\.title) == ["Milk", "Eggs", "Tea"])
    #expect(todos.ids == [1, 2, 3])
    #expect(todos[id: 2] == eggs)
    #expect(todos[id: 9] == nil)
    #expect(todos.index(id: 3) == 2)
    #expect(todos.contains(id: 1))
    #expect(todos[1] == eggs)
  }

  @Test func subscriptByIDUpdatesInsertsAndRemoves() {
    var todos: IdentifiedArrayOf<Todo> = [milk, eggs]
    todos[id: 2]?.title = "Bread"
    expectInvariants(todos)
    #expect(todos[id: 2]?.title == "Bread")
    todos[id: 3] = tea
    expectInvariants(todos)
    #expect(todos.ids == [1, 2, 3])
    todos[id: 1] = nil
    expectInvariants(todos)
    #expect(todos.ids == [2, 3])
    #expect(todos.index(id: 3) == 1)
    todos[id: 42] = nil
    expectInvariants(todos)
    #expect(todos.count == 2)
  }

  @Test func appendInsertAndRemoveKeepPositionsRight() {
    var todos = IdentifiedArrayOf<Todo>()
    #expect(todos.append(milk) == (true, 0))
    expectInvariants(todos)
    #expect(todos.append(milk) == (false, 0))
    expectInvariants(todos)
    todos.append(tea)
    expectInvariants(todos)
    #expect(todos.insert(eggs, at: 1) == (true, 1))
    expectInvariants(todos)
    #expect(todos.ids == [1, 2, 3])
    #expect(todos.remove(id: 1) == milk)
    expectInvariants(todos)
    #expect(todos.index(id: 2) == 0)
    #expect(todos.index(id: 3) == 1)
    #expect(todos.remove(at: 0) == eggs)
    expectInvariants(todos)
    #expect(todos.ids == [3])
    todos.append(contentsOf: [milk, eggs, tea])
    expectInvariants(todos)
    todos.removeAll { $0.id == 1 }
    expectInvariants(todos)
    #expect(todos.ids == [3, 2])
    #expect(todos[id: 2] == eggs)
    todos.removeAll()
    expectInvariants(todos)
    #expect(todos.isEmpty)
  }

  // swift-identified-collections' testAppend and testAppendContentsOf: appending an id that is
  // there already (here, in the middle) gives its position and changes nothing, its title
  // included, and a later append still lands at the end.
  @Test func appendingAnIDAlreadyThereGivesItsPositionAndChangesNothing() {
    var todos: IdentifiedArrayOf<Todo> = [milk, eggs, tea]
    let renamed = Todo(id: 2, title: "Bread")
    #expect(todos.append(renamed) == (false, 1))
    expectInvariants(todos)
    #expect(Array(todos) == [milk, eggs, tea])
    #expect(todos.index(id: 2) == 1)
    let cheese = Todo(id: 4, title: "Cheese")
    #expect(todos.append(cheese) == (true, 3))
    expectInvariants(todos)
    #expect(todos.index(id: 4) == 3)
    todos.append(contentsOf: [milk, Todo(id: 5, title: "Jam"), tea, Todo(id: 6, title: "Oil")])
    expectInvariants(todos)
    #expect(todos.ids == [1, 2, 3, 4, 5, 6])
    #expect(todos.index(id: 6) == 5)
  }

  @Test func sortAndMoveReindex() {
    var todos: IdentifiedArrayOf<Todo> = [tea, milk, eggs]
    todos.sort { $0.id < $1.id }
    #expect(todos.ids == [1, 2, 3])
    #expect(todos.index(id: 3) == 2)
    todos.move(fromOffsets: [0], toOffset: 3)
    expectInvariants(todos)
    #expect(todos.ids == [2, 3, 1])
    #expect(todos[id: 1] == milk)
    #expect(todos.index(id: 1) == 2)
  }

  @Test func mutatingThroughPositionKeepsIDs() {
    var todos: IdentifiedArrayOf<Todo> = [milk, eggs]
    for index in todos.indices { todos[index].title += "!" }
    #expect(todos.map(\.title) == ["Milk!", "Eggs!"])
  }

  @Test func customIDFunction() {
    var words = IdentifiedArray(uniqueElements: ["apple", "banana"], id: { $0.first! })
    #expect(words[id: "b"] == "banana")
    words.append("avocado")  // same id as apple: ignored
    expectInvariants(words)
    #expect(words.elements == ["apple", "banana"])
  }

  @Test func equalityHashingAndCodable() throws {
    let todos: IdentifiedArrayOf<Todo> = [milk, eggs]
    #expect(todos == [milk, eggs])
    #expect(todos != [eggs, milk])
    #expect(Set([todos, [milk, eggs]]).count == 1)
    let data = try JSONEncoder().encode(todos)
    #expect(String(decoding: data, as: UTF8.self).hasPrefix("[{"))
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: data)
    #expect(decoded == todos)
    #expect(decoded[id: 2] == eggs)
  }

  @Test func decodingDuplicateIDsIsAClearError() {
    let json = Data(#"[{"id":1,"title":"a"},{"id":1,"title":"b"}]"#.utf8)
    #expect {
      try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: json)
    } throws: { error in
      guard case let DecodingError.dataCorrupted(context) = error else { return false }
      return context.debugDescription.contains("duplicate id 1")
    }
  }

  @Test func anArrayNobodyReadsTheRowsOfLogsNoInPlaceChange() {
    var todos: IdentifiedArrayOf<Todo> = [milk, eggs]
    let stamp = todos._stamp
    todos[id: 1]?.title = "Oat milk"
    expectInvariants(todos)
    todos[0].title = "Soy milk"
    expectInvariants(todos)
    todos.updateOrAppend(Todo(id: 2, title: "Duck eggs"))
    expectInvariants(todos)
    #expect(todos._stamp == stamp)
    #expect(todos._log.entries.isEmpty)
    #expect(!todos._logsElementChanges)
  }

  @Test func turningTheLogOnGivesANewStampAndCopiesKeepLogging() {
    var todos: IdentifiedArrayOf<Todo> = [milk, eggs]
    let stamp = todos._stamp
    todos._startLoggingElementChanges()
    expectInvariants(todos)
    // No stamp given while the log was off names a content once it is on.
    #expect(todos._stamp != stamp)
    let onStamp = todos._stamp
    todos._startLoggingElementChanges()
    expectInvariants(todos)
    #expect(todos._stamp == onStamp)
    var copy = todos
    copy[id: 2]?.title = "Duck eggs"
    expectInvariants(copy)
    #expect(copy._stamp != onStamp)
    #expect(copy._log.start(since: onStamp) == 0)
    // A new array, even one made from a logging one, starts with its log off.
    #expect(!todos.filter { _ in true }._logsElementChanges)
  }

  @Test func whileRowsAreObservedEveryChangeGetsANewStampAndALogEntry() {
    // As when a row store's group or a recorder turned the log on for this array.
    var todos: IdentifiedArrayOf<Todo> = [milk, eggs]
    todos._startLoggingElementChanges()
    expectInvariants(todos)
    let stamp = todos._stamp
    todos[id: 1]?.title = "Oat milk"
    expectInvariants(todos)
    todos[0].title = "Soy milk"
    expectInvariants(todos)
    #expect(todos._stamp != stamp)
    // Each in-place change is logged under the stamp it replaced, with the element's id.
    let modified = todos._log.entries.compactMap { entry -> Int? in
      if case let .modified(id) = entry.change { return id }
      return nil
    }
    #expect(modified == [1, 1])
    #expect(todos._log.start(since: stamp) == 0)
    let copy = todos
    let beforeAppend = todos._stamp
    todos.append(tea)
    expectInvariants(todos)
    #expect(todos._stamp != beforeAppend)
    #expect(copy._stamp == beforeAppend)
    let afterAppend = todos._stamp
    todos.remove(id: 3)
    expectInvariants(todos)
    #expect(todos._stamp != afterAppend)
    // A read changes nothing.
    let afterRemove = todos._stamp
    _ = todos[id: 2]
    _ = todos[0]
    #expect(todos._stamp == afterRemove)
  }
}
