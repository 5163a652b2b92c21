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

/// One scaling row: a workload measured at several sizes, beside its floor measured the same
/// way in the same run. The growth is the cost at the largest size over the cost at the
/// smallest.
struct ScalingResult: Encodable {
  let id: String
  let name: String
  let sizes: [Int]
  let nsPerOp: [Double]
  let floorNsPerOp: [Double]
  let growth: Double
  let floorGrowth: Double
  let checksum: Int
  let note: String?

  enum CodingKeys: String, CodingKey {
    case id, name, sizes, growth, checksum, note
    case nsPerOp = "ns_per_op"
    case floorNsPerOp = "floor_ns_per_op"
    case floorGrowth = "floor_growth"
  }

  init(
    id: String, name: String, sizes: [Int], run: [(nsPerOp: Double, checksum: Int)],
    floor: [(nsPerOp: Double, checksum: Int)], note: String?
  ) {
    self.id = id
    self.name = name
    self.sizes = sizes
    self.nsPerOp = run.map(\.nsPerOp)
    self.floorNsPerOp = floor.map(\.nsPerOp)
    self.growth = nsPerOp.last! / max(nsPerOp.first!, 0.01)
    self.floorGrowth = floorNsPerOp.last! / max(floorNsPerOp.first!, 0.01)
    self.checksum = (run + floor).reduce(0) { $0 &+ $1.checksum }
    self.note = note
  }
}

/// One case of a scaling row: a workload, or its floor, at one size. `body(units)` performs
/// `units * operationsPerUnit` operations and returns a checksum; `prepare(units)` runs before
/// every timing of the body, untimed (to make what the body uses up, such as fresh stores).
struct Timed {
  let operationsPerUnit: Int
  let prepare: @MainActor (Int) async -> Void
  let body: @MainActor (Int) async -> Int

  init(
    operationsPerUnit: Int = 1, _ body: @escaping @MainActor (Int) async -> Int,
    prepare: @escaping @MainActor (Int) async -> Void = { _ in }
  ) {
    self.operationsPerUnit = operationsPerUnit
    self.prepare = prepare
    self.body = body
  }
}

/// The time the running scaling case spent in ``untimed(_:)``, which ``measureInterleaved``
/// takes off its timing.
@MainActor var untimedNanoseconds: UInt64 = 0

/// Runs `body` (a wait) inside a timed case, its duration taken off the case's timing.
@MainActor func untimed(_ body: () async -> Void) async {
  let start = DispatchTime.now().uptimeNanoseconds
  await body()
  untimedNanoseconds &+= DispatchTime.now().uptimeNanoseconds - start
}

/// Times the cases of scaling rows interleaved: each case is first calibrated (the number of
/// units that takes about `target` nanoseconds), then every repetition times every case in
/// turn, so that a slow spell of the machine lands on all sizes and floors alike. The first
/// pass is a warm-up; each case's result is the median of the rest, per operation, without
/// the time the case spent in ``untimed(_:)``.
@MainActor
func measureInterleaved(
  _ cases: [Timed], repetitions: Int = 5, target: Double = 25_000_000
) async -> [(nsPerOp: Double, checksum: Int)] {
  func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
  var checksums = [Int](repeating: 0, count: cases.count)
  var units: [Int] = []
  // `CASCADE_BENCHMARK_UNITS=N`: N units a pass, not calibrated, so that an instruction
  // counter (callgrind) sees the same work from one run to the next.
  let fixedUnits = ProcessInfo.processInfo.environment["CASCADE_BENCHMARK_UNITS"].flatMap {
    Int($0)
  }
  for (index, timed) in cases.enumerated() {
    if let fixedUnits {
      units.append(fixedUnits)
      continue
    }
    var count = 1
    while true {
      await timed.prepare(count)
      let start = now()
      checksums[index] &+= await timed.body(count)
      let elapsed = Double(now() - start)
      if elapsed >= 2_000_000 || count >= 1 << 24 {
        units.append(max(1, Int(Double(count) * target / max(elapsed, 1))))
        break
      }
      count *= elapsed < 200_000 ? 8 : 2
    }
  }
  var samples = [[Double]](repeating: [], count: cases.count)
  for pass in 0...repetitions {
    for (index, timed) in cases.enumerated() {
      await timed.prepare(units[index])
      untimedNanoseconds = 0
      let start = now()
      checksums[index] &+= await timed.body(units[index])
      let elapsed = Double(now() - start - untimedNanoseconds)
      if pass > 0 {
        samples[index].append(elapsed / Double(units[index] * timed.operationsPerUnit))
      }
    }
  }
  return samples.indices.map { (samples[$0].sorted()[samples[$0].count / 2], checksums[$0]) }
}
