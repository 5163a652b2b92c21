import Cascade
import Foundation

// The Speech framework does not exist on Linux. These plain types stand in for the ones the
// feature code touches: `SFSpeechRecognizerAuthorizationStatus`,
// `SFSpeechAudioBufferRecognitionRequest`, and the two values read out of a recognition result.

/// Whether the user lets the app recognize speech (`SFSpeechRecognizerAuthorizationStatus`).
enum SpeechAuthorizationStatus: Equatable, Sendable {
  case notDetermined
  case denied
  case restricted
  case authorized
}

/// A request to recognize live audio (`SFSpeechAudioBufferRecognitionRequest`).
struct SpeechRecognitionRequest: Equatable, Sendable {
  var shouldReportPartialResults = true
  var requiresOnDeviceRecognition = false
}

struct SpeechRecognitionResult: Equatable, Sendable {
  var bestTranscription: Transcription
  var isFinal: Bool
}

struct Transcription: Equatable, Sendable {
  var formattedString: String
}

/// Speech recognition as a dependency: a struct of closures, each with the default it returns
/// when a test calls it without overriding it.
struct SpeechClient: Sendable {
  var authorizationStatus: @Sendable () -> SpeechAuthorizationStatus = { .denied }
  var requestAuthorization: @Sendable () async -> SpeechAuthorizationStatus = { .denied }
  var startTask:
    @Sendable (_ request: SpeechRecognitionRequest) async -> AsyncThrowingStream<
      SpeechRecognitionResult, any Error
    > = { _ in .finished() }
}

extension SpeechClient: DependencyKey {
  /// There is no speech recognizer on this platform: the device reports recognition as
  /// restricted, and the app records meetings without a transcript.
  static let liveValue = SpeechClient(
    authorizationStatus: { .restricted },
    requestAuthorization: { .restricted },
    startTask: { _ in
      AsyncThrowingStream { $0.finish(throwing: SpeechRecognitionUnavailable()) }
    }
  )

  /// Authorized, and "hears" a paragraph of lorem ipsum a few words at a time.
  static let previewValue = SpeechClient(
    authorizationStatus: { .authorized },
    requestAuthorization: { .authorized },
    startTask: { _ in
      AsyncThrowingStream { continuation in
        let task = Task {
          var transcript = ""
          for word in loremIpsum.split(separator: " ") {
            try await Task.sleep(for: .milliseconds(Int.random(in: 100...400)))
            transcript += transcript.isEmpty ? String(word) : " \(word)"
            continuation.yield(
              SpeechRecognitionResult(
                bestTranscription: Transcription(formattedString: transcript),
                isFinal: false
              )
            )
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
  )

  /// Every endpoint fails the test that calls it without overriding it.
  static let testValue = SpeechClient(
    authorizationStatus: unimplemented("SpeechClient.authorizationStatus", placeholder: .denied),
    requestAuthorization: unimplemented("SpeechClient.requestAuthorization", placeholder: .denied),
    startTask: unimplemented(
      "SpeechClient.startTask",
      placeholder: AsyncThrowingStream<SpeechRecognitionResult, any Error>.finished()
    )
  )

  /// The preview client, failing once `duration` has passed: for trying out the failure alert.
  static func fail(after duration: Duration) -> Self {
    var client = previewValue
    client.startTask = { request in
      AsyncThrowingStream { continuation in
        let task = Task {
          let start = ContinuousClock.now
          for try await result in await previewValue.startTask(request) {
            if ContinuousClock.now - start > duration {
              continuation.finish(throwing: SpeechRecognitionUnavailable())
              return
            }
            continuation.yield(result)
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
    return client
  }
}

extension DependencyValues {
  var speechClient: SpeechClient {
    get { self[SpeechClient.self] }
    set { self[SpeechClient.self] = newValue }
  }
}

/// Recognition stopped, or could not start.
struct SpeechRecognitionUnavailable: Error {}

private let loremIpsum = """
  Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut \
  labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco \
  laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in \
  voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat \
  cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.
  """
