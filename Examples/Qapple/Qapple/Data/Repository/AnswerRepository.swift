import Cascade
import CascadeExampleSupport
import Foundation

/// Questions and answers: fetched page by page, written, liked, reported and deleted.
public struct AnswerRepository: Sendable {
  public var todayQuestion: @Sendable () async throws(QappleError) -> Question
  /// The page of answers to `questionID` after `threshold` (the first page when `nil`).
  public var answers:
    @Sendable (_ questionID: Int, _ threshold: String?, _ size: Int) async throws(QappleError) ->
      AnswerPage
  public var write:
    @Sendable (_ questionID: Int, _ content: String) async throws(QappleError) -> Answer
  public var setLiked:
    @Sendable (_ answerID: Int, _ isLiked: Bool) async throws(QappleError) -> Void
  public var report: @Sendable (_ answerID: Int) async throws(QappleError) -> Void
  public var delete: @Sendable (_ answerID: Int) async throws(QappleError) -> Void

  public init(
    todayQuestion: @escaping @Sendable () async throws(QappleError) -> Question,
    answers: @escaping @Sendable (Int, String?, Int) async throws(QappleError) -> AnswerPage,
    write: @escaping @Sendable (Int, String) async throws(QappleError) -> Answer,
    setLiked: @escaping @Sendable (Int, Bool) async throws(QappleError) -> Void,
    report: @escaping @Sendable (Int) async throws(QappleError) -> Void,
    delete: @escaping @Sendable (Int) async throws(QappleError) -> Void
  ) {
    self.todayQuestion = todayQuestion
    self.answers = answers
    self.write = write
    self.setLiked = setLiked
    self.report = report
    self.delete = delete
  }
}

/// An answer as stored, in the data set and in the local store.
struct AnswerRecord: Codable, Sendable {
  let answerId: Int
  let questionId: Int
  let writerId: Int
  let nickname: String
  let profileImage: String?
  let content: String
  var isReported: Bool
  var isLiked: Bool
  let writeAt: String
}

/// The local store: everything the user did, kept in a JSON file written atomically.
struct LocalChanges: Codable, Sendable {
  var written: [AnswerRecord] = []
  var liked: [Int: Bool] = [:]
  var reported: Set<Int> = []
  var deleted: Set<Int> = []
}

extension AnswerRepository {
  /// The data set the app ships: questions and answers as the API would send them.
  public static var shippedDataSet: URL? {
    Bundle.module.url(forResource: "answers", withExtension: "json")
  }

  /// Serves the shipped data set through the same JSON the API would send, with `latency`
  /// on `clock`, answers whose likes fail in `failingLikes`, and the user's changes kept in
  /// `dataDirectory` (`nil`: in memory).
  ///
  /// A data set that is missing or unreadable fails every request with a message the screen
  /// shows. A file of the user's changes that cannot be read is moved aside under a name of its
  /// own (`qapple-local.unreadable-1.json`, then `-2`...), the next request fails once saying
  /// where it went, and the app goes on with no saved changes. When it cannot be moved aside,
  /// it is left as it is (never overwritten), the message says so, and changes are kept for
  /// this run only. `moveAside` is how the file is moved (tests make it fail).
  ///
  /// ```swift
  /// $0.answerRepository = .live(dataDirectory: folder, userID: { 7 })
  /// ```
  public static func live(
    dataDirectory: URL?,
    userID: @escaping @Sendable () -> Int,
    latency: Duration = .zero,
    clock: any Clock<Duration> = ContinuousClock(),
    failingLikes: Set<Int> = [],
    dataSetURL: URL? = shippedDataSet,
    moveAside: @escaping @Sendable (URL) -> Result<URL, FileRescue.Failure> = FileRescue.moveAside
  ) -> Self {
    struct DataSet: Decodable {
      let questions: [QuestionDTO]
      let answers: [AnswerRecord]
    }
    let storeFile = dataDirectory?.appendingPathComponent("qapple-local.json")
    let local = Locked<LocalChanges?>(nil)
    /// What to tell the user about an unreadable file of changes, until a request has told it.
    let unreadableNote = Locked<String?>(nil)
    /// Why changes are not saved: the unreadable file could not be moved aside and is left as
    /// it is, never overwritten.
    let saveBlocked = Locked<Bool>(false)

    @Sendable func dataSet() throws(QappleError) -> DataSet {
      guard let url = dataSetURL, let data = try? Data(contentsOf: url),
        let set = try? JSONDecoder().decode(DataSet.self, from: data)
      else { throw QappleError("The answers could not be loaded.") }
      return set
    }
    @Sendable func loadChanges() -> LocalChanges {
      guard let storeFile, FileManager.default.fileExists(atPath: storeFile.path) else {
        return LocalChanges()
      }
      if let data = try? Data(contentsOf: storeFile),
        let decoded = try? JSONDecoder().decode(LocalChanges.self, from: data)
      {
        return decoded
      }
      let note: String
      switch moveAside(storeFile) {
      case .success(let kept):
        note =
          "Your saved changes could not be read. They were kept in \(kept.lastPathComponent); "
          + "try again to go on without them."
      case .failure(let failure):
        saveBlocked.withLock { $0 = true }
        note =
          "Your saved changes could not be read, and the file could not be moved aside "
          + "(\(failure)); it is left as it is, and nothing you do now is saved. "
          + "Try again to go on without them."
      }
      unreadableNote.withLock { $0 = note }
      return LocalChanges()
    }
    @Sendable func changes() throws(QappleError) -> LocalChanges {
      let loaded = local.withLock { cached in
        if let cached { return cached }
        let loaded = loadChanges()
        cached = loaded
        return loaded
      }
      if let note = unreadableNote.withLock({ note in
        defer { note = nil }
        return note
      }) {
        throw QappleError(note)
      }
      return loaded
    }
    @Sendable func change(_ body: (inout LocalChanges) -> Void) throws(QappleError) {
      var updated = try changes()
      body(&updated)
      local.withLock { $0 = updated }
      guard let storeFile, !saveBlocked.withLock({ $0 }) else { return }
      do {
        try FileManager.default.createDirectory(
          at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(updated).write(to: storeFile, options: .atomic)
        SaveFailures.note(storeFile, what: "your answers, likes and reports", failure: nil)
      } catch {
        let reason = fileError(error, writing: storeFile)
        SaveFailures.note(storeFile, what: "your answers, likes and reports", failure: reason)
        throw QappleError("Your change could not be saved to \(storeFile.path): \(reason).")
      }
    }
    @Sendable func wait() async { if latency > .zero { try? await clock.sleep(for: latency) } }

    return AnswerRepository(
      todayQuestion: { () async throws(QappleError) -> Question in
        await wait()
        guard let latest = try dataSet().questions.max(by: { $0.questionId < $1.questionId })
        else { throw QappleError("There is no question today.") }
        return try latest.toEntity()
      },
      answers: { (questionID, threshold, size) async throws(QappleError) -> AnswerPage in
        await wait()
        let local = try changes()
        return try page(
          of: try dataSet().answers + local.written, questionID: questionID, local: local,
          after: threshold, size: size, me: userID())
      },
      write: { (questionID, content) async throws(QappleError) -> Answer in
        await wait()
        let id = 9000 + (try changes()).written.count + 1
        let writeAt = ISO8601DateFormatter().string(from: Date())
        let record = AnswerRecord(
          answerId: id, questionId: questionID, writerId: userID(), nickname: "Me",
          profileImage: nil, content: content, isReported: false, isLiked: false,
          writeAt: writeAt)
        try change { $0.written.append(record) }
        return Answer(
          id: id, content: content, authorNickname: "Me", publishedDate: Date(iso8601: writeAt)!,
          isMine: true)
      },
      setLiked: { (answerID, isLiked) async throws(QappleError) in
        await wait()
        if failingLikes.contains(answerID) { throw QappleError("The like did not go through.") }
        try change { $0.liked[answerID] = isLiked }
      },
      report: { answerID async throws(QappleError) in
        await wait()
        try change { _ = $0.reported.insert(answerID) }
      },
      delete: { answerID async throws(QappleError) in
        await wait()
        try change { _ = $0.deleted.insert(answerID) }
      })
  }
  /// A page of `records` for the question, newest first, after the `threshold` cursor, as the
  /// API would send it: through JSON.
  private static func page(
    of records: [AnswerRecord], questionID: Int, local: LocalChanges, after threshold: String?,
    size: Int, me: Int
  ) throws(QappleError) -> AnswerPage {
    let all =
      records
      .filter { $0.questionId == questionID && !local.deleted.contains($0.answerId) }
      .sorted { $0.answerId > $1.answerId }
    var after = all
    if let cursor = threshold.flatMap(Int.init) { after = all.filter { $0.answerId < cursor } }
    let page = Array(after.prefix(size))
    let content = page.map { (record: AnswerRecord) -> AnswersOfQuestionDTO.Content in
      let isReported = record.isReported || local.reported.contains(record.answerId)
      let isLiked = local.liked[record.answerId] ?? record.isLiked
      return AnswersOfQuestionDTO.Content(
        answerId: record.answerId, writerId: record.writerId,
        profileImage: record.profileImage, nickname: record.nickname,
        content: record.content, isMine: record.writerId == me,
        isReported: isReported, isLiked: isLiked, writeAt: record.writeAt)
    }
    let dto = AnswersOfQuestionDTO(
      total: all.count, size: size, content: content, numberOfElements: page.count,
      threshold: page.last.map { "\($0.answerId)" }, hasNext: after.count > page.count)
    guard let json = try? JSONEncoder().encode(dto),
      let decoded = try? JSONDecoder().decode(AnswersOfQuestionDTO.self, from: json)
    else { throw QappleError("The answers could not be read.") }
    return decoded.toEntity()
  }
}

extension AnswerRepository: DependencyKey {
  public static var liveValue: AnswerRepository {
    .live(dataDirectory: nil, userID: { SessionService.liveValue.currentUserID() })
  }
  public static let testValue = AnswerRepository(
    todayQuestion: { () async throws(QappleError) -> Question in
      reportUnimplemented("AnswerRepository.todayQuestion")
      throw QappleError("unimplemented")
    },
    answers: { (_, _, _) async throws(QappleError) -> AnswerPage in
      reportUnimplemented("AnswerRepository.answers")
      throw QappleError("unimplemented")
    },
    write: { (_, _) async throws(QappleError) -> Answer in
      reportUnimplemented("AnswerRepository.write")
      throw QappleError("unimplemented")
    },
    setLiked: { (_, _) async throws(QappleError) in reportUnimplemented("AnswerRepository.setLiked")
    },
    report: { _ async throws(QappleError) in reportUnimplemented("AnswerRepository.report") },
    delete: { _ async throws(QappleError) in reportUnimplemented("AnswerRepository.delete") })
}

extension DependencyValues {
  public var answerRepository: AnswerRepository {
    get { self[AnswerRepository.self] }
    set { self[AnswerRepository.self] = newValue }
  }
}
