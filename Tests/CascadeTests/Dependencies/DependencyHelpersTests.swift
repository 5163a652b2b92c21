import CascadeTesting
import Foundation
import Testing

@testable import Cascade

private struct SpeechClient: Sendable {
  var authorizationStatus: @Sendable () -> Int
  var requestAuthorization: @Sendable () async -> Int
  var transcribe: @Sendable (String, Int) async throws -> String
  var load: @Sendable (URL) throws -> Data
}

@MainActor
@Suite(.hangGuard)
struct DependencyHelpersTests {
  @Test func uuidFromAnIntegerIsTheIncrementingSequencesValue() {
    #expect(UUID(0).uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(UUID(1).uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(UUID(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
    let generate = UUIDGenerator.incrementing
    #expect([generate(), generate(), generate()] == [UUID(0), UUID(1), UUID(2)])
  }

  @Test func settingDateNowFixesTheDate() {
    let fixed = Date(timeIntervalSince1970: 1_234_567_890)
    withDependencies {
      $0.date.now = fixed
    } operation: {
      @Dependency(\.date) var date
      #expect(date.now == fixed)
      #expect(date() == fixed)
    }
  }

  @Test func aStoresEffectsSeeTheSetDate() async {
    let fixed = Date(timeIntervalSince1970: 42)
    struct Stamp: Reducer {
      @Dependency(\.date.now) var now
      func reduce(into state: inout Date?, action: Void) -> Effect<Void> {
        state = now
        return .none
      }
    }
    let store = TestStore(initialState: nil) {
      Stamp()
    } withDependencies: {
      $0.date.now = fixed
    }
    await store.send(()) { $0 = fixed }
    let later = Date(timeIntervalSince1970: 84)
    store.dependencies.date.now = later
    await store.send(()) { $0 = later }
  }

  @Test func unimplementedEndpointsOfEveryShapeReportAndFallBack() async {
    let client = SpeechClient(
      authorizationStatus: unimplemented("SpeechClient.authorizationStatus", placeholder: 0),
      requestAuthorization: unimplemented("SpeechClient.requestAuthorization", placeholder: 3),
      transcribe: unimplemented("SpeechClient.transcribe"),
      load: unimplemented("SpeechClient.load")
    )
    let (_, warnings) = await RuntimeWarnings.capturing {
      #expect(client.authorizationStatus() == 0)
      #expect(await client.requestAuthorization() == 3)
      await #expect(throws: UnimplementedError.self) {
        try await client.transcribe("hello", 1)
      }
      #expect(throws: UnimplementedError.self) {
        try client.load(URL(filePath: "/tmp/x"))
      }
    }
    #expect(
      warnings.map(\.message).compactMap { $0.split(separator: "'").dropFirst().first }
        == [
          "SpeechClient.authorizationStatus", "SpeechClient.requestAuthorization",
          "SpeechClient.transcribe", "SpeechClient.load",
        ])
  }

  @Test func aPlaceholderFitsAThrowingAsyncEndpoint() async throws {
    let fetch: @Sendable (Int, Int) async throws -> [Int] = unimplemented(
      "Client.fetch", placeholder: [])
    let (value, warnings) = await RuntimeWarnings.capturing { try? await fetch(1, 2) }
    #expect(value == [])
    #expect(warnings.count == 1)
  }
}
