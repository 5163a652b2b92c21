import Cascade
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
  /// (`bookmarks.json.unreadable`), never overwritten. Toggles are serialized: reading,
  /// changing, saving and telling observers happen as one step, so concurrent taps lose nothing
  /// and every observer sees the changes in order.
  public static func live(file: URL?) -> Self {
    struct State {
      var bookmarks: Set<Policy.ID>?
      var observers: [UUID: AsyncStream<Set<Policy.ID>>.Continuation] = [:]

      /// The bookmarks, read from `file` the first time.
      mutating func current(file: URL?) -> Set<Policy.ID> {
        if let bookmarks { return bookmarks }
        let loaded = file.map(Self.read) ?? []
        bookmarks = loaded
        return loaded
      }

      static func read(_ file: URL) -> Set<Policy.ID> {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        if let data = try? Data(contentsOf: file),
          let ids = try? JSONDecoder().decode([Policy.ID].self, from: data)
        {
          return Set(ids)
        }
        // Keep the unreadable file for the user instead of overwriting it on the next toggle.
        let kept = file.appendingPathExtension("unreadable")
        try? FileManager.default.removeItem(at: kept)
        let moved = (try? FileManager.default.moveItem(at: file, to: kept)) != nil
        reportIssue(
          "CleanArea bookmarks at \(file.path) are unreadable; starting with none. "
            + (moved
              ? "The file was kept as \(kept.lastPathComponent)."
              : "The file could not be moved aside; it will be replaced on the next change."))
        return []
      }
    }
    let state = Guarded(State())
    return BookmarkClient(
      current: { state.withLock { $0.current(file: file) } },
      toggle: { id in
        state.withLock { state in
          var bookmarks = state.current(file: file)
          if bookmarks.remove(id) == nil { bookmarks.insert(id) }
          state.bookmarks = bookmarks
          if let file {
            do {
              try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
              try JSONEncoder().encode(bookmarks.sorted()).write(to: file, options: .atomic)
            } catch {
              reportIssue(
                "CleanArea could not save bookmarks to \(file.path): \(error). They are kept for "
                  + "this run only; check that the folder is writable.")
            }
          }
          for observer in state.observers.values { observer.yield(bookmarks) }
        }
      },
      updates: {
        let (stream, continuation) = AsyncStream<Set<Policy.ID>>.makeStream()
        let id = UUID()
        continuation.onTermination = { _ in
          _ = state.withLock { $0.observers.removeValue(forKey: id) }
        }
        state.withLock { state in
          state.observers[id] = continuation
          continuation.yield(state.current(file: file))
        }
        return stream
      })
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
