import CascadeTesting
import Foundation
import Testing

@testable import Cascade

private struct Meeting: Codable, Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
}

private let meetingsURL = URL(filePath: "/virtual/meetings.json")

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<Meeting>>.Default {
  fileprivate static var meetings: Self {
    Self[.fileStorage(meetingsURL), default: [Meeting(id: 1, title: "Default")]]
  }
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var counter: Self { Self[.inMemory("counter"), default: 7] }
}

/// A detail screen holding one meeting of a shared list, as SyncUps' detail does.
private struct MeetingDetail: Reducer {
  struct State: Equatable {
    @Shared var meeting: Meeting
  }
  enum Action { case rename(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .rename(title): state.$meeting.withLock { $0.title = title }
    }
    return .none
  }
}

@MainActor
@Suite(.hangGuard)
struct SharedProjectionTests {
  init() { reportRuntimeWarningsAsTestFailures() }

  @Test func anElementProjectionReadsAndWritesTheElementInTheArray() {
    let meetings = Shared(
      value: IdentifiedArrayOf<Meeting>(uniqueElements: [
        Meeting(id: 1, title: "Design"), Meeting(id: 2, title: "Engineering"),
      ]))
    let second: Shared<Meeting?> = meetings[id: 2]
    #expect(second.wrappedValue?.title == "Engineering")
    second.withLock { $0?.title = "Eng" }
    #expect(meetings.wrappedValue[id: 2]?.title == "Eng")
    #expect(meetings[id: 3].wrappedValue == nil)
    #expect(second.isSameReference(as: meetings[id: 2]))
    #expect(!second.isSameReference(as: meetings[id: 1]))
  }

  @Test func unwrappingGivesTheElementOrNil() throws {
    let meetings = Shared(
      value: IdentifiedArrayOf<Meeting>(uniqueElements: [
        Meeting(id: 1, title: "Design")
      ]))
    #expect(Shared(meetings[id: 9]) == nil)
    let design = try #require(Shared(meetings[id: 1]))
    design.withLock { $0.title = "Design review" }
    #expect(meetings.wrappedValue[id: 1]?.title == "Design review")
    meetings.withLock { $0[id: 1]?.title = "Renamed in the list" }
    #expect(design.wrappedValue.title == "Renamed in the list")
  }

  @Test func aRemovedElementKeepsItsLastValueAndIsNotWrittenBack() throws {
    let meetings = Shared(
      value: IdentifiedArrayOf<Meeting>(uniqueElements: [
        Meeting(id: 1, title: "Design")
      ]))
    let design = try #require(Shared(meetings[id: 1]))
    meetings.withLock { _ = $0.remove(id: 1) }
    #expect(design.wrappedValue == Meeting(id: 1, title: "Design"))
    design.withLock { $0.title = "Too late" }
    #expect(meetings.wrappedValue.isEmpty)
    #expect(design.wrappedValue.title == "Too late")
  }

  @Test func aChildStoreEditsTheElementTheParentListHolds() async throws {
    let meetings = Shared(
      value: IdentifiedArrayOf<Meeting>(uniqueElements: [
        Meeting(id: 1, title: "Design")
      ]))
    let meeting = try #require(Shared(meetings[id: 1]))
    let store = Store(initialState: MeetingDetail.State(meeting: meeting)) { MeetingDetail() }
    store.send(.rename("Planning"))
    #expect(meetings.wrappedValue[id: 1]?.title == "Planning")

    let testStore = TestStore(initialState: MeetingDetail.State(meeting: meeting)) {
      MeetingDetail()
    }
    await testStore.send(.rename("Retro")) { $0.$meeting.withLock { $0.title = "Retro" } }
    #expect(meetings.wrappedValue[id: 1]?.title == "Retro")
  }

  @Test func aKeyWithADefaultNeedsNoInitialValue() {
    withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      @Shared(.meetings) var meetings: IdentifiedArrayOf<Meeting>
      #expect(meetings.map(\.title) == ["Default"])
      @Shared(.counter) var counter: Int
      #expect(counter == 7)
    }
  }

  @Test func anExplicitDefaultReplacesTheKeys() {
    withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      @Shared(.counter) var counter = 1
      #expect(counter == 1)
    }
  }

  @Test func aKeyWithADefaultIsTheSameReferenceAsItsBaseKey() throws {
    let storage = SharedStorage.inMemory()
    try withDependencies {
      $0.sharedStorage = storage
    } operation: { () throws in
      @Shared(.meetings) var meetings: IdentifiedArrayOf<Meeting>
      @Shared(.fileStorage(meetingsURL)) var same = IdentifiedArrayOf<Meeting>()
      #expect($meetings.isSameReference(as: $same))
      $meetings.withLock { $0.append(Meeting(id: 2, title: "Saved")) }
      let data = try #require(try storage.readFile(at: meetingsURL))
      let saved = try JSONDecoder().decode([Meeting].self, from: data)
      #expect(saved.map(\.title) == ["Default", "Saved"])
    }
  }

  @Test func theFirstDeclarationDecidesAndLaterDefaultsAreNeverEvaluated() {
    withDependencies {
      $0.sharedStorage = .inMemory()
    } operation: {
      @Shared(.counter) var first: Int
      @Shared(.counter) var second = 99
      #expect(first == 7)
      #expect(second == 7)
      let evaluated = Guarded(false)
      func tracked() -> Int {
        evaluated.withLock { $0 = true }
        return 42
      }
      @Shared(.counter) var third = tracked()
      #expect(third == 7)
      #expect(!evaluated.withLock { $0 })
    }
  }

  @Test func aStoredValueWinsOverTheKeysDefault() throws {
    let storage = SharedStorage.inMemory()
    try storage.writeFile(
      JSONEncoder().encode([Meeting(id: 5, title: "From disk")]), to: meetingsURL)
    withDependencies {
      $0.sharedStorage = storage
    } operation: {
      @Shared(.meetings) var meetings: IdentifiedArrayOf<Meeting>
      #expect(meetings.map(\.title) == ["From disk"])
    }
  }
}
