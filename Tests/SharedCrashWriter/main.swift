import Cascade
import Foundation

// shared-crash-writer <file> | --defaults <suite>: loads a record from shared file storage (or
// from user defaults), prints "loaded <count>" (or "load-error <message>" and exits 3), then
// rewrites the record as fast as it can, forever. A test kills it with SIGKILL at random
// moments and checks that what is stored is always one whole record. It exits by itself once
// the process that started it is gone (a test run that crashed or was killed), instead of
// spinning on a machine's cores forever.

/// A record whose checksum ties its fields together: a torn or mixed write cannot match it.
struct Record: Codable, Sendable {
  var count = 0
  var payload = ""
  var checksum = 0

  static func checksum(count: Int, payload: String) -> Int {
    payload.utf8.reduce(count) { $0 &* 31 &+ Int($1) }
  }

  mutating func advance() {
    count += 1
    let letter = Character(UnicodeScalar(UInt8(97 + count % 26)))
    payload = String(repeating: letter, count: 2_000 + (count % 7) * 3_000)
    checksum = Record.checksum(count: count, payload: payload)
  }

  /// The record as one line of text, for user defaults: `count checksum payload`.
  var line: String { "\(count) \(checksum) \(payload)" }
}

func report(_ text: String) {
  // Written straight to the pipe: `print` would wait in a buffer the kill throws away.
  FileHandle.standardOutput.write(Data("\(text)\n".utf8))
}

/// Exits when the parent is gone (the writer is then adopted by another process), checked
/// every 64 writes.
let parent = getppid()
func exitIfOrphaned(after writes: Int) {
  if writes % 64 == 0, getppid() != parent { exit(0) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.count {
case 1:
  let storage = SharedStorage.disk(throttlesSaves: false)
  let record = withDependencies {
    $0.sharedStorage = storage
  } operation: {
    Shared(wrappedValue: Record(), .fileStorage(URL(fileURLWithPath: arguments[0])))
  }
  if let error = record.loadError {
    report("load-error \(error)")
    exit(3)
  }
  report("loaded \(record.wrappedValue.count)")
  for writes in 1... {
    record.withLock { $0.advance() }
    exitIfOrphaned(after: writes)
  }
case 2 where arguments[0] == "--defaults":
  let storage = SharedStorage.disk(defaultsSuite: arguments[1], throttlesSaves: false)
  let line = withDependencies {
    $0.sharedStorage = storage
  } operation: {
    Shared(wrappedValue: "", .appStorage("record"))
  }
  var record = Record()
  record.count = Int(line.wrappedValue.prefix { $0 != " " }) ?? 0
  report("loaded \(record.count)")
  for writes in 1... {
    record.advance()
    line.withLock { $0 = record.line }
    exitIfOrphaned(after: writes)
  }
default:
  FileHandle.standardError.write(
    Data("usage: shared-crash-writer <file> | --defaults <suite>\n".utf8))
  exit(2)
}
