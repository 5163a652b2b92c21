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
  /// An unreadable file is reported and moved aside (`bookmarks.json.unreadable`), never
  /// overwritten.
  public static func live(file: URL?) -> Self {
    struct State {
      var bookmarks: Set<Policy.ID>?
      var observers: [UUID: AsyncStream<Set<Policy.ID>>.Continuation] = [:]
    }
    let state = Guarded(State())
    @Sendable func load() -> Set<Policy.ID> {
      state.withLock { state in
        if let bookmarks = state.bookmarks { return bookmarks }
        var loaded: Set<Policy.ID> = []
        if let file, let data = try? Data(contentsOf: file) {
          if let ids = try? JSONDecoder().decode([Policy.ID].self, from: data) {
            loaded = Set(ids)
          } else {
            // Keep the unreadable file for the user instead of overwriting it on the next toggle.
            let kept = file.appendingPathExtension("unreadable")
            try? FileManager.default.removeItem(at: kept)
            let moved = (try? FileManager.default.moveItem(at: file, to: kept)) != nil
            reportIssue(
              "CleanArea bookmarks at \(file.path) are unreadable; starting with none. "
                + (moved
                  ? "The file was kept as \(kept.lastPathComponent)."
                  : "The file could not be moved aside."))
          }
        }
        state.bookmarks = loaded
        return loaded
      }
    }
    return BookmarkClient(
      current: load,
      toggle: { id in
        var bookmarks = load()
        if bookmarks.remove(id) == nil { bookmarks.insert(id) }
        let observers = state.withLock { state in
          state.bookmarks = bookmarks
          return Array(state.observers.values)
        }
        if let file {
          do {
            try FileManager.default.createDirectory(
              at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONEncoder().encode(bookmarks.sorted()).write(to: file, options: .atomic)
          } catch {
            reportIssue("CleanArea could not save bookmarks to \(file.path): \(error)")
          }
        }
        for observer in observers { observer.yield(bookmarks) }
      },
      updates: {
        let (stream, continuation) = AsyncStream<Set<Policy.ID>>.makeStream()
        let id = UUID()
        continuation.onTermination = { _ in
          _ = state.withLock { $0.observers.removeValue(forKey: id) }
        }
        state.withLock { $0.observers[id] = continuation }
        continuation.yield(load())
        return stream
      })
  }
}

extension BookmarkClient: DependencyKey {
  public static var liveValue: BookmarkClient { .live(file: nil) }
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
