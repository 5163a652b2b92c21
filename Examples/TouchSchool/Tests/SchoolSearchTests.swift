import Cascade
import CascadeExampleTouchSchool
import CascadeTesting
import Foundation
import Testing

/// A directory answer for `schools`, every entry filed as `gubun` (their level's by default).
func directoryJSON(_ schools: [School], gubun: String? = nil) -> String {
  let entries = schools.map { school in
    """
    {"seq": "\(school.id)", "schoolName": "\(school.name)", "adres": "\(school.address)", \
    "schoolGubun": "\(gubun ?? school.level.koreanName)"}
    """
  }
  return "{\"dataSearch\": {\"content\": [\(entries.joined(separator: ", "))]}}"
}

@Suite(.timeLimit(.minutes(10)))
struct SchoolSearchTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "touch-school-tests-\(UUID().uuidString)", isDirectory: true)

  /// Each test gets its own instance: only the test that writes lists creates (and removes)
  /// the folder, so no run leaves one behind.
  init() {
    reportRuntimeWarningsAsTestFailures()
  }

  func write(_ text: String, to level: School.Level) throws {
    try Data(text.utf8).write(to: folder.appendingPathComponent("\(level.rawValue).json"))
  }

  @Test func theShippedListsLoadWithTwelveSchoolsEachAndMergeWithoutDuplicates() async throws {
    let client = SchoolSearchClient.live()
    var lists: [[School]] = []
    for level in School.Level.allCases {
      let schools = try await client.schools(level)
      #expect(schools.count == 12)
      #expect(schools.allSatisfy { $0.level == level && $0.name.hasSuffix(level.koreanName) })
      lists.append(schools)
    }
    let merged = try School.merged(lists)
    #expect(merged.count == 36)
    #expect(merged.map(\.name) == merged.map(\.name).sorted())
    let ids = Set(merged.map(\.id))
    #expect(RivalPlayers.shippedSchools.allSatisfy(ids.contains))
  }

  @Test func mergingSortsByNameThenCodeAndRejectsACodeUsedTwice() throws {
    let twin = School(id: "7999999", name: seoulHigh.name, address: "", level: .high)
    let merged = try School.merged([[jamsilElementary], [daechiMiddle], [twin, seoulHigh]])
    #expect(merged == [daechiMiddle, seoulHigh, twin, jamsilElementary])
    let clash = School(id: seoulHigh.id, name: "다른학교", address: "", level: .middle)
    #expect(throws: SchoolSearchError.malformed("code 7130027 names both 서울고등학교 and 다른학교")) {
      try School.merged([[seoulHigh], [clash]])
    }
  }

  @Test func badListsGiveClearTypedErrors() async throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let client = SchoolSearchClient.live(directory: folder)
    await #expect(throws: SchoolSearchError.unavailable("cannot read high.json")) {
      try await client.schools(.high)
    }
    try write("{\"dataSearch\": ", to: .high)
    await #expect(throws: SchoolSearchError.malformed("high.json is not a school list")) {
      try await client.schools(.high)
    }
    try write(directoryJSON([daechiMiddle], gubun: "고등학교"), to: .middle)
    await #expect(
      throws: SchoolSearchError.malformed("대치중학교 (7091027) is a 고등학교 in the middle list")
    ) {
      try await client.schools(.middle)
    }
    try write(directoryJSON([jamsilElementary]), to: .elementary)
    #expect(try await client.schools(.elementary) == [jamsilElementary])
  }
}
