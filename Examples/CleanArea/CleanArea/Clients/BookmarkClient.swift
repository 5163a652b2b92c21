import Cascade
import CascadeExampleSupport
import Foundation

/// The user's bookmarked policies: the one place they live, kept on disk, and a live stream of
/// changes that every screen showing bookmarks observes. No screen holds a copy another screen
/// must update by hand.
public struct BookmarkClient: Sendable {
  public var current: @Sendable () -> Set<Policy.ID>
  public var toggle: @Sendable (Policy.ID) -> Void
  /// The bookmarks now, then after every change, until the observer stops.
  public var updates: @Sendable () -> AsyncStream<Set<Policy.ID>>

  public init(
    current: @escaping @Sendable () -> Set<Policy.ID>,
    toggle: @escaping @Sendable (Policy.ID) -> Void,
    updates: @escaping @Sendable () -> AsyncStream<Set<Policy.ID>>
  ) {
    self.current = current
    self.toggle = toggle
    self.updates = updates
  }
}

extension BookmarkClient {
  /// Bookmarks kept in `file` (written atomically), or in memory when `file` is `nil`.
  ///
  /// ```swift
  /// let bookmarks = BookmarkClient.live(file: support.appendingPathComponent("bookmarks.json"))
  /// bookmarks.toggle(17)   // saved, and every `updates()` observer hears it
  /// ```
  ///
  /// A file that exists but cannot be read or decoded is reported and moved aside
  /// (`bookmarks.unreadable-1.json`, then `-2`...), never overwritten. Toggles are serialized:
  /// reading, changing and saving happen as one step, so concurrent taps lose nothing; every
  /// observer is told after the lock is released, in order (see `SnapshotBroadcast`).
  ///
  /// - Parameter moveAside: How an unreadable file is moved aside (tests make it fail).
  public static func live(
    file: URL?,
    moveAside: (URL) -> Result<URL, FileRescue.Failure> = FileRescue.moveAside
  ) -> Self {
    let (loaded, blocked) = file.map { read($0, moveAside: moveAside) } ?? ([], nil)
    let bookmarks = SnapshotBroadcast(loaded)
    return BookmarkClient(
      current: { bookmarks.value },
      toggle: { id in
        let failure = bookmarks.update { bookmarks -> String? in
          if bookmarks.remove(id) == nil { bookmarks.insert(id) }
          guard let file, blocked == nil, !DataDirectory.isLeaving else { return nil }
          do {
            try FileManager.default.createDirectory(
              at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONEncoder().encode(bookmarks.sorted()).write(to: file, options: .atomic)
            SaveFailures.note(file, what: "the bookmarks", failure: nil)
            return nil
          } catch {
            let reason = fileError(error, writing: file)
            SaveFailures.note(file, what: "the bookmarks", failure: reason)
            return "CleanArea could not save bookmarks to \(file.path): \(reason). "
              + "They are kept for this run only."
          }
        }
        if let failure { reportIssue(failure) }
      },
      updates: { bookmarks.stream() })
  }

  /// The bookmarks in `file`, and why they will not be saved, if they will not: a file that
  /// cannot be read is moved aside under a name of its own (never overwritten); when it cannot
  /// be moved, it is left alone and this run's bookmarks are not saved.
  private static func read(
    _ file: URL, moveAside: (URL) -> Result<URL, FileRescue.Failure>
  ) -> (Set<Policy.ID>, blocked: String?) {
    guard FileManager.default.fileExists(atPath: file.path) else { return ([], nil) }
    if let data = try? Data(contentsOf: file),
      let ids = try? JSONDecoder().decode([Policy.ID].self, from: data)
    {
      return (Set(ids), nil)
    }
    switch moveAside(file) {
    case .success(let kept):
      reportIssue(
        "CleanArea bookmarks at \(file.path) are unreadable; starting with none. "
          + "The file was kept as \(kept.lastPathComponent).")
      return ([], nil)
    case .failure(let failure):
      let blocked =
        "CleanArea bookmarks at \(file.path) are unreadable and could not be moved aside "
        + "(\(failure)); the file is left as it is, and this run's bookmarks are not saved."
      reportIssue(blocked)
      return ([], blocked)
    }
  }

  /// Where the app keeps bookmarks by default: `CleanArea/bookmarks.json` in the user's
  /// application support folder (`~/.local/share` on Linux).
  public static var defaultFile: URL? {
    FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
      .appendingPathComponent("CleanArea/bookmarks.json")
  }
}

extension BookmarkClient {
  /// An effect for a screen that shows bookmarks: sends them now and after every change, until
  /// the screen goes away (its effects are cancelled) or it appears again (the old observation
  /// is replaced).
  ///
  /// ```swift
  /// case .onAppear:
  ///   return bookmarks.observe(Action.bookmarksChanged)
  /// ```
  public func observe<Action: Sendable>(
    _ toAction: @escaping @Sendable (Set<Policy.ID>) -> Action
  ) -> Effect<Action> {
    .run { [updates] send in
      for await ids in updates() { await send(toAction(ids)) }
    }
    .cancellable(id: ObservationID(), cancelInFlight: true)
  }

  private struct ObservationID: Hashable, Sendable {}
}

extension BookmarkClient: DependencyKey {
  /// Bookmarks in ``defaultFile``, so they outlive the process.
  public static var liveValue: BookmarkClient { .live(file: defaultFile) }
  public static let testValue = BookmarkClient(
    current: unimplemented("BookmarkClient.current", placeholder: []),
    toggle: unimplemented("BookmarkClient.toggle", placeholder: ()),
    updates: {
      reportUnimplemented("BookmarkClient.updates")
      return AsyncStream { $0.finish() }
    })
}

extension DependencyValues {
  public var bookmarks: BookmarkClient {
    get { self[BookmarkClient.self] }
    set { self[BookmarkClient.self] = newValue }
  }
}
