import Foundation

/// Why a recording file could not be written or read; the description says which file, what
/// is wrong and what to do.
///
/// ```swift
/// do {
///   let session = try RecordedSession(contentsOf: URL(fileURLWithPath: "session.json"))
///   print(session.steps.count)
/// } catch {
///   print(error)  // "no file at session.json: record one with --record, ..."
/// }
/// ```
public enum RecordingFileError: Error, Equatable, CustomStringConvertible {
  /// No file at the path.
  case missing(path: String)
  /// The path could not be read (a folder, no permission): the path and the reason.
  case unreadable(path: String, reason: String)
  /// The file is not a recording: the path and what is wrong with it.
  case invalid(path: String, reason: String)
  /// The recorder was not made `inspectable`, so the recording has no session to write.
  case notInspectable
  /// The file could not be written: the path and the reason in words (the disk is full, a
  /// folder is where the file should be, no permission).
  case unwritable(path: String, reason: String)

  /// What went wrong, where, and what to do.
  public var description: String {
    switch self {
    case .missing(let path):
      "no file at \(path): record one with an example's --record FILE, or write a "
        + "Recorder(inspectable: true)'s recording with recording.write(to:)"
    case .unreadable(let path, let reason):
      "cannot read \(path): \(reason)"
    case .invalid(let path, let reason):
      "\(path) is not a Cascade recording (\(reason)); record one with --record FILE or "
        + "recording.write(to:)"
    case .notInspectable:
      "this recording has no session to inspect: make the recorder with "
        + "Recorder(inspectable: true)"
    case .unwritable(let path, let reason):
      "cannot write the recording to \(path): \(reason)"
    }
  }
}

extension Recording {
  /// Writes the recording to `url` as JSON, atomically: the ``session`` (what `cascade-inspect`
  /// reads) and, when `Action` is `Encodable`, the actions (what decoding a ``Recording`` and
  /// ``replay(from:withDependencies:reducer:)`` need).
  ///
  /// Its keys are sorted, so two identical sessions give the same bytes. A symbolic link is
  /// written through (the file it names is replaced, the link stays), and a file that is not a
  /// regular file (a terminal, a pipe, `/dev/stdout`) is written directly, never renamed over.
  ///
  /// ```swift
  /// let recorder = Recorder<App.State, App.Action>(inspectable: true)
  /// // ... the session runs ...
  /// try recorder.recording.write(to: URL(fileURLWithPath: "session.json"))
  /// ```
  ///
  /// - Parameter url: The file to write (replaced if it exists).
  /// - Throws: ``RecordingFileError/notInspectable`` when the recorder was not made
  ///   `inspectable`, ``RecordingFileError/unwritable(path:reason:)`` when the file cannot be
  ///   written, or an action's encoding error.
  public func write(to url: URL) throws {
    guard let session else { throw RecordingFileError.notInspectable }
    let file = RecordingFileContents(actions: actions as? any Encodable, session: session)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    let data = try encoder.encode(file)
    do { try OutputFile.write(data, to: url.path) } catch {
      throw RecordingFileError.unwritable(path: url.path, reason: OutputFile.reason(of: error))
    }
  }
}

extension RecordedSession {
  /// Reads the session of a recording file written by ``Recording/write(to:)`` (or by
  /// encoding a ``Recording`` that has one).
  ///
  /// ```swift
  /// let session = try RecordedSession(contentsOf: URL(fileURLWithPath: "session.json"))
  /// ```
  ///
  /// - Parameter url: The recording file.
  /// - Throws: A ``RecordingFileError`` that names the file and what is wrong.
  public init(contentsOf url: URL) throws(RecordingFileError) {
    let path = url.path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw .missing(path: path)
    }
    guard !isFolder.boolValue else {
      throw .unreadable(path: path, reason: "it is a folder, not a file")
    }
    var data = Data()
    if _Files.kind(path) == .other {
      // A pipe, a FIFO or a terminal (`<(cat session.json)`): read to its end.
      switch _Files.readAll(path) {
      case let .success(bytes): data = bytes
      case let .failure(failure):
        throw .unreadable(path: path, reason: OutputFile.reason(failure.code, reading: true))
      }
    } else {
      do { data = try Data(contentsOf: url) } catch {
        throw .unreadable(path: path, reason: OutputFile.reason(of: error, reading: true))
      }
    }
    struct File: Decodable { let session: RecordedSession? }
    let file: File
    do { file = try JSONDecoder().decode(File.self, from: data) } catch {
      throw .invalid(path: path, reason: Self.reason(error))
    }
    guard let session = file.session else {
      throw .invalid(
        path: path, reason: "it has no \"session\": it was recorded without inspectable: true")
    }
    self = session
  }

  /// What is wrong with the file, in words a user reads: where in the JSON, and what.
  private static func reason(_ error: any Error) -> String {
    func place(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
      return path.isEmpty ? "the top level" : path.joined()
    }
    switch error {
    case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
      return "it is not JSON"
    case DecodingError.keyNotFound(let key, let context):
      return "\"\(key.stringValue)\" is missing at \(place(context))"
    case DecodingError.typeMismatch(_, let context):
      return "\(place(context)) holds a value of the wrong kind"
    case DecodingError.valueNotFound(_, let context):
      return "\(place(context)) is null"
    case DecodingError.dataCorrupted(let context):
      return "\(place(context)) holds a value it cannot have"
    default:
      return "\(error)"
    }
  }
}

/// What ``Recording/write(to:)`` writes.
private struct RecordingFileContents: Encodable {
  let actions: (any Encodable)?
  let session: RecordedSession

  enum CodingKeys: String, CodingKey { case actions, session }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if let actions { try container.encode(actions, forKey: .actions) }
    try container.encode(session, forKey: .session)
  }
}
