import CascadeAllocationCounter
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One measured workload: its cost per operation beside the plain-Swift floor measured in the
/// same run.
struct Result: Encodable {
  let id: String
  let name: String
  let nsPerOp: Double
  let floorNsPerOp: Double
  let ratio: Double
  let allocsPerOp: Double?
  /// The floor's allocations per operation, where they are counted (W5).
  let floorAllocsPerOp: Double?
  let checksum: Int
  let note: String?

  enum CodingKeys: String, CodingKey {
    case id, name, ratio, checksum, note
    case nsPerOp = "ns_per_op"
    case floorNsPerOp = "floor_ns_per_op"
    case allocsPerOp = "allocs_per_op"
    case floorAllocsPerOp = "floor_allocs_per_op"
  }
}

/// Times `body` (which performs `operations` operations and returns a checksum) after a
/// warm-up, over several repetitions, and returns the median nanoseconds per operation.
@MainActor
func measure(
  operations: Int, repetitions: Int = 5, _ body: () -> Int
) -> (nsPerOp: Double, checksum: Int) {
  var checksum = body()  // warm-up
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let start = DispatchTime.now().uptimeNanoseconds
    checksum &+= body()
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
  }
  return (samples.sorted()[samples.count / 2], checksum)
}

/// The asynchronous version of ``measure(operations:repetitions:_:)``.
@MainActor
func measure(
  operations: Int, repetitions: Int = 5, _ body: () async -> Int
) async -> (nsPerOp: Double, checksum: Int) {
  var checksum = await body()
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let start = DispatchTime.now().uptimeNanoseconds
    checksum &+= await body()
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
  }
  return (samples.sorted()[samples.count / 2], checksum)
}

/// Heap allocations, counted by the `AllocationCounter` target: glibc's allocator statistics
/// give bytes in use, not a count of calls, so the benchmark interposes `malloc` and its
/// relatives itself (Linux; elsewhere, and in sanitizer builds, the JSON field is `null`).
enum Allocations {
  /// Heap allocations per operation while `body` performs `operations` of them; `nil` where
  /// the allocator cannot be counted.
  @MainActor
  static func perOperation(_ operations: Int, _ body: () -> Void) -> Double? {
    let before = cascade_allocation_count()
    guard before >= 0 else { return nil }
    body()
    return Double(cascade_allocation_count() - before) / Double(operations)
  }

  /// The asynchronous version of ``perOperation(_:_:)``: every thread's allocations count, so
  /// nothing else may run meanwhile.
  @MainActor
  static func perOperation(_ operations: Int, _ body: () async -> Void) async -> Double? {
    let before = cascade_allocation_count()
    guard before >= 0 else { return nil }
    await body()
    return Double(cascade_allocation_count() - before) / Double(operations)
  }
}

/// The process's peak resident memory, from /proc (Linux) or getrusage.
func peakResidentBytes() -> Int {
  #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    {
      return kilobytes * 1024
    }
  #endif
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  #else
    getrusage(RUSAGE_SELF, &usage)
    return usage.ru_maxrss
  #endif
}

/// The current resident memory (Linux), to measure what a workload adds.
func residentBytes() -> Int {
  #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    {
      return kilobytes * 1024
    }
  #endif
  return peakResidentBytes()
}
