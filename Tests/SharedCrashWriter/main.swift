import Cascade
import Foundation

// shared-crash-writer <file>: loads a record from shared file storage, prints
// "loaded <count>" (or "load-error <message>" and exits 3), then rewrites the record as fast as
// it can, forever. A test kills it with SIGKILL at random moments and checks that the file
// always holds one whole record.

/// A record whose checksum ties its fields together: a torn or mixed write cannot match it.
struct Record: Codable, Sendable {
  var count = 0
  var payload = ""
  var checksum = 0

  static func checksum(count: Int, payload: String) -> Int {
    payload.utf8.reduce(count) { $0 &* 31 &+ Int($1) }
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: shared-crash-writer <file>\n".utf8))
  exit(2)
}
let url = URL(fileURLWithPath: arguments[1])
let storage = SharedStorage.disk(throttlesSaves: false)
let record = withDependencies {
  $0.sharedStorage = storage
} operation: {
  Shared(wrappedValue: Record(), .fileStorage(url))
}
if let error = record.loadError {
  FileHandle.standardOutput.write(Data("load-error \(error)\n".utf8))
  exit(3)
}
// Written straight to the pipe: `print` would wait in a buffer the kill throws away.
FileHandle.standardOutput.write(Data("loaded \(record.wrappedValue.count)\n".utf8))
while true {
  record.withLock { record in
    record.count += 1
    let letter = Character(UnicodeScalar(UInt8(97 + record.count % 26)))
    record.payload = String(repeating: letter, count: 2_000 + (record.count % 7) * 3_000)
    record.checksum = Record.checksum(count: record.count, payload: record.payload)
  }
}
