import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps a user's unreadable data file: moves it aside under a name no other file has, so the
/// app can start fresh without deleting or overwriting anything.
///
/// The first rescue of `bookmarks.json` is `bookmarks.unreadable-1.json`, the next one
/// `bookmarks.unreadable-2.json`, and so on: a second corrupt file never replaces the first
/// one's rescued copy. The move never replaces a file (it is a hard link to the new name, which
/// fails if the name is taken, then the old name is removed).
///
/// ```swift
/// switch FileRescue.moveAside(file) {
/// case .success(let kept): note = "The file was kept as \(kept.lastPathComponent)."
/// case .failure(let error): note = "It could not be moved aside (\(error)); it is left as is."
/// }
/// ```
public enum FileRescue {
  /// Why a file could not be moved aside.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    /// What the system said.
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
  }

  /// Moves `file` to the first free `<name>.unreadable-<n>.<extension>` beside it.
  public static func moveAside(_ file: URL) -> Result<URL, Failure> {
    let folder = file.deletingLastPathComponent()
    let stem = file.deletingPathExtension().lastPathComponent
    let suffix = file.pathExtension.isEmpty ? "" : ".\(file.pathExtension)"
    for number in 1...10_000 {
      let kept = folder.appendingPathComponent("\(stem).unreadable-\(number)\(suffix)")
      if link(file.path, kept.path) == 0 {
        guard unlink(file.path) == 0 else {
          let reason = lastError()
          unlink(kept.path)
          return .failure(Failure(reason: reason))
        }
        return .success(kept)
      }
      switch errno {
      case EEXIST: continue
      case EPERM, EXDEV, ENOTSUP:
        // A file system without hard links: move it only if the name is free.
        guard !FileManager.default.fileExists(atPath: kept.path) else { continue }
        guard rename(file.path, kept.path) == 0 else {
          return .failure(Failure(reason: lastError()))
        }
        return .success(kept)
      default:
        return .failure(Failure(reason: lastError()))
      }
    }
    return .failure(Failure(reason: "10000 rescued copies are already there"))
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}
