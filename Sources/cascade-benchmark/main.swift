import Foundation

// cascade-benchmark: the cost of Cascade's core operations beside the plain-Swift floor, in the
// same run. Build in release: `swift run -c release cascade-benchmark [--json] [--filter W2]`.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    usage: cascade-benchmark [--json] [--filter PREFIX | --only ID] [--repeat N]

      --json             print the results as JSON (what scripts/performance-table.swift reads)
      --filter PREFIX    run only the workloads whose id starts with PREFIX (W1, W5, W10...;
                         S runs the scaling rows, E the explorer's rows)
      --only ID          run only the workload (or group: W3, W5, W10, S1, S3, S5, S6, S7)
                         with this id
      --repeat N         run the selection N times and report the last run (for a profiler
                         such as perf, which needs seconds of the same work)

    Each row is timed beside its floor, the same work done by an optimized, non-inlined
    plain-Swift function on plain values, in the same run; the ratio is to that floor.
    A scaling row (S...) is measured at several sizes, beside its floor at the same sizes;
    its growth is the cost at the largest size over the cost at the smallest.
    """)
  exit(0)
}
let json = arguments.contains("--json")
let filter = arguments.firstIndex(of: "--filter").flatMap {
  $0 + 1 < arguments.count ? arguments[$0 + 1].uppercased() : nil
}
let only = arguments.firstIndex(of: "--only").flatMap {
  $0 + 1 < arguments.count ? arguments[$0 + 1].uppercased() : nil
}
let repeats = arguments.firstIndex(of: "--repeat").flatMap {
  $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
}
if arguments.contains("--repeat"), (repeats ?? 0) < 1 {
  print("cascade-benchmark: --repeat takes a whole number of runs, 1 or more")
  exit(2)
}
func selected(_ id: String) -> Bool {
  if let only { return id == only }
  return filter.map { id.hasPrefix($0) } ?? true
}
/// Whether a group of scaling rows runs: its own id, or one of its rows', is selected.
func selected(group: String, _ ids: String...) -> Bool {
  ([group] + ids).contains { selected($0.uppercased()) }
}

#if DEBUG
  if !json {
    print("warning: a debug build measures the debugger's view, not Cascade: use -c release\n")
  }
#endif

var results: [Result] = []
var scaling: [ScalingResult] = []
/// S6, measured once, in the first run: it needs a process in which no `Shared` was ever made.
var noSharedTestStore: ScalingResult?
var memory: (addedBytes: Int, peakBytes: Int)?
var cycleGrowth: (after10k: Int, after100k: Int)?
var exploration: [Exploration.Row] = []
let started = Date()

for run in 0..<(repeats ?? 1) {
  results = []
  scaling = []
  // W9 first: memory the other workloads free is reused, and would hide what a new store costs.
  if selected("W9") { memory = await MainActor.run { Workloads.w9() } }
  // S6 next, before anything makes a `Shared` (W10, S6x, S8): a test store looks for shared
  // state in its state at every step once one has been made in the process.
  if run == 0, selected(group: "S6", "S6") {
    noSharedTestStore = await Scaling.s6(withShared: false)
  }
  if selected("W1") { results.append(await MainActor.run { Workloads.w1(observed: true) }) }
  if selected("W1O") { results.append(await MainActor.run { Workloads.w1o() }) }
  if selected("W1N") { results.append(await MainActor.run { Workloads.w1(observed: false) }) }
  if selected("W1I") { results.append(await MainActor.run { Workloads.w1i() }) }
  if selected("W1D") { results.append(await MainActor.run { Workloads.w1d() }) }
  if selected("W2") { results.append(await MainActor.run { Workloads.w2() }) }
  if selected("W3") { results.append(contentsOf: await MainActor.run { Workloads.w3() }) }
  if selected("W4") { results.append(await MainActor.run { Workloads.w4() }) }
  if selected("W5") { results.append(contentsOf: await Workloads.w5()) }
  if selected("W6") { results.append(await Workloads.w6()) }
  if selected("W7") { results.append(await MainActor.run { Workloads.w7() }) }
  if selected("W8") { results.append(await MainActor.run { Workloads.w8() }) }
  if selected("W10") { results.append(contentsOf: await MainActor.run { Workloads.w10() }) }
  if selected("W11") { cycleGrowth = await MainActor.run { Workloads.w11() } }
  if selected("W12") { results.append(await MainActor.run { Workloads.w12() }) }
  if selected(group: "S1", "S1s") { scaling.append(contentsOf: await Scaling.s1()) }
  if selected(group: "S3", "S3r", "S3p", "S3pl") { scaling.append(contentsOf: await Scaling.s3()) }
  if selected("S4B") { scaling.append(await Scaling.s4b()) }
  if selected(group: "S5", "S5v", "S5o") { scaling.append(contentsOf: await Scaling.s5()) }
  if selected(group: "S5", "S5w") { scaling.append(await Scaling.s5w()) }
  if let noSharedTestStore { scaling.append(noSharedTestStore) }
  if selected(group: "S6", "S6x") { scaling.append(await Scaling.s6(withShared: true)) }
  for (id, pick) in Scaling.recordedRowPicks where selected("S7") || selected(id.uppercased()) {
    scaling.append(await Scaling.s7(id, pick))
  }
  if selected("S8") { scaling.append(await Scaling.s8()) }
  if selected(group: "E", "E1", "E2") { exploration = await Exploration.rows() }
}

if json {
  struct Output: Encodable {
    let workloads: [Result]
    let scaling: [ScalingResult]
    let peakResidentBytesW9: Int?
    let addedResidentBytesW9: Int?
    let residentGrowthBytesW11After10k: Int?
    let residentGrowthBytesW11After100k: Int?
    let exploration: [Exploration.Row]
    enum CodingKeys: String, CodingKey {
      case workloads, scaling, exploration
      case peakResidentBytesW9 = "peak_rss_bytes_w9"
      case addedResidentBytesW9 = "added_rss_bytes_w9"
      case residentGrowthBytesW11After10k = "rss_growth_bytes_w11_10k_cycles"
      case residentGrowthBytesW11After100k = "rss_growth_bytes_w11_100k_cycles"
    }
  }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  let output = Output(
    workloads: results, scaling: scaling, peakResidentBytesW9: memory?.peakBytes,
    addedResidentBytesW9: memory?.addedBytes,
    residentGrowthBytesW11After10k: cycleGrowth?.after10k,
    residentGrowthBytesW11After100k: cycleGrowth?.after100k,
    exploration: exploration
  )
  print(String(decoding: try! encoder.encode(output), as: UTF8.self))
} else {
  func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
  func number(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
  if !results.isEmpty || (scaling.isEmpty && exploration.isEmpty) {
    print(
      pad("id", 5) + pad("workload", 46) + pad("ns/op", 11) + pad("floor ns", 11)
        + pad("ratio", 9) + "allocs/op")
  }
  for result in results {
    let timing: String =
      pad(result.id, 5) + pad(result.name, 46) + pad(number(result.nsPerOp), 11)
      + pad(number(result.floorNsPerOp), 11) + pad(number(result.ratio) + "x", 9)
    var allocations: String = result.allocsPerOp.map { number($0) } ?? "-"
    if let floor = result.floorAllocsPerOp { allocations += " (floor " + number(floor) + ")" }
    print(timing + allocations)
  }
  if let memory {
    print(
      "W9   a store holding a 100,000-screen stack: +\(memory.addedBytes / 1024) KiB resident; "
        + "peak resident \(memory.peakBytes / 1024 / 1024) MiB")
  }
  if let cycleGrowth {
    print(
      "W11  navigation cycles (push, act, pop, present, dismiss) after a 1,000-cycle warm-up: "
        + "resident memory \(cycleGrowth.after10k / 1024) KiB larger after 10,000, "
        + "\(cycleGrowth.after100k / 1024) KiB after 100,000")
  }
  for result in results where result.note != nil { print("  \(result.id): \(result.note!)") }
  if !scaling.isEmpty {
    print(
      (results.isEmpty ? "" : "\n") + pad("id", 5) + pad("scaling row", 58)
        + "size: ns/op (floor ns/op)")
  }
  for row in scaling {
    let sizes = zip(row.sizes, zip(row.nsPerOp, row.floorNsPerOp)).map { size, cost in
      "\(size): \(number(cost.0)) (\(number(cost.1)))"
    }
    print(
      pad(row.id, 5) + pad(row.name + " ", 58) + sizes.joined(separator: "  ") + "  growth "
        + number(row.growth) + "x (floor " + number(row.floorGrowth) + "x)")
  }
  for row in scaling where row.note != nil { print("  \(row.id): \(row.note!)") }
  if !exploration.isEmpty { print("") }
  for row in exploration {
    print(
      pad(row.id, 5) + row.name + ": "
        + String(
          format: "%.0f transitions/s (%d transitions, %d configurations, %.2f s)",
          row.transitionsPerSecond, row.transitions, row.configurations, row.seconds)
        + (row.bytesPerConfiguration.map { ", ~\($0) bytes per stored configuration" } ?? ""))
    let depths = row.configurationsByDepth.enumerated().map { "\($0.offset): \($0.element)" }
    let shown = depths.count > 12 ? Array(depths.prefix(6)) + ["…"] + depths.suffix(3) : depths
    print("     new configurations by depth: " + shown.joined(separator: ", "))
  }
  print(
    String(format: "(%.1f s, checksums printed with --json)", Date().timeIntervalSince(started)))
}
