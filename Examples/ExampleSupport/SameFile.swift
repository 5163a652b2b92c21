import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the paths `a` and `b` name the same file, after resolving `..`, symbolic links and
/// hard links: an output must never be written over an input. Two existing files are compared
/// by device and inode; otherwise by their paths with every existing folder resolved.
///
/// ```swift
/// isSameFile("data/../data/ranking.json", "data/ranking.json")  // true
/// ```
public func isSameFile(_ a: String, _ b: String) -> Bool {
  var first = stat()
  var second = stat()
  if stat(a, &first) == 0, stat(b, &second) == 0 {
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
  }
  return resolved(a) == resolved(b)
}

/// `path` made absolute and standardized, its folder's symbolic links resolved (the file
/// itself may not exist yet).
private func resolved(_ path: String) -> String {
  let url = URL(fileURLWithPath: path).standardizedFileURL
  return url.deletingLastPathComponent().resolvingSymlinksInPath()
    .appendingPathComponent(url.lastPathComponent).path
}
