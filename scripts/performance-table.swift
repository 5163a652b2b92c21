// Regenerates the Performance tables (README.md and the DocC article) from the benchmark's JSON.
//
//   for run in 1 2 3; do .build/release/cascade-benchmark --json > /tmp/run$run.json; done
//   swift scripts/performance-table.swift /tmp/run1.json /tmp/run2.json /tmp/run3.json \
//     --write README.md Sources/Cascade/Cascade.docc/Performance.md
//
// With several runs, every number is the median over the runs (each ratio is the median of the
// runs' ratios, each taken to the floor measured in the same run). Without `--write`, the table
// is printed. `--write` replaces what lies between the lines `<!-- performance-table -->` and
// `<!-- /performance-table -->` in each file. The scaling rows (the JSON's `scaling`), when
// the runs have them, follow as a second table: each size's cost, and the growth.
import Foundation

let begin = "<!-- performance-table -->"
let end = "<!-- /performance-table -->"

var inputs: [String] = []
var targets: [String] = []
var writing = false
for argument in CommandLine.arguments.dropFirst() {
  if argument == "--write" {
    writing = true
  } else if writing {
    targets.append(argument)
  } else {
    inputs.append(argument)
  }
}
guard !inputs.isEmpty else {
  FileHandle.standardError.write(
    Data("usage: performance-table.swift RUN.json... [--write FILE...]\n".utf8))
  exit(2)
}

func median(_ values: [Double]) -> Double? {
  guard !values.isEmpty else { return nil }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func number(_ value: Double) -> String {
  String(format: value < 10 ? "%.2f" : value < 1000 ? "%.1f" : "%.0f", value)
}

var order: [String] = []
var names: [String: String] = [:]
var notes: [String: String] = [:]
var columns: [String: [String: [Double]]] = [:]
var memory: [String: [Double]] = [:]
// The scaling rows: per id, its sizes, and per field the runs' values at each size.
var scalingOrder: [String] = []
var scalingSizes: [String: [Int]] = [:]
var scalingColumns: [String: [String: [[Double]]]] = [:]

for input in inputs {
  guard let data = FileManager.default.contents(atPath: input),
    let run = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    let workloads = run["workloads"] as? [[String: Any]]
  else {
    FileHandle.standardError.write(
      Data("\(input): not the output of cascade-benchmark --json\n".utf8))
    exit(1)
  }
  for workload in workloads {
    guard let id = workload["id"] as? String else { continue }
    if names[id] == nil { order.append(id) }
    names[id] = workload["name"] as? String ?? id
    notes[id] = workload["note"] as? String
    for key in ["ns_per_op", "floor_ns_per_op", "ratio", "allocs_per_op", "floor_allocs_per_op"] {
      if let value = workload[key] as? Double {
        columns[id, default: [:]][key, default: []].append(value)
      }
    }
  }
  for (key, value) in run where key.hasSuffix("_bytes_w9") || key.contains("_w11_") {
    if let value = value as? Double { memory[key, default: []].append(value) }
  }
  for row in run["scaling"] as? [[String: Any]] ?? [] {
    guard let id = row["id"] as? String, let sizes = row["sizes"] as? [Int] else { continue }
    if scalingSizes[id] == nil { scalingOrder.append(id) }
    scalingSizes[id] = sizes
    names[id] = row["name"] as? String ?? id
    notes[id] = row["note"] as? String
    for key in ["ns_per_op", "floor_ns_per_op"] {
      if let values = row[key] as? [Double] {
        scalingColumns[id, default: [:]][key, default: []].append(values)
      }
    }
    for key in ["growth", "floor_growth"] {
      if let value = row[key] as? Double {
        scalingColumns[id, default: [:]][key, default: []].append([value])
      }
    }
  }
}

var lines =
  order.isEmpty
  ? []
  : [
    "| id | workload | ns/op | floor ns/op | ratio | allocs/op |",
    "|---|---|--:|--:|--:|--:|",
  ]
for id in order {
  let column = columns[id] ?? [:]
  func value(_ key: String) -> Double? { median(column[key] ?? []) }
  var allocs = value("allocs_per_op").map(number) ?? "–"
  if let floorAllocs = value("floor_allocs_per_op") { allocs += " (floor \(number(floorAllocs)))" }
  lines.append(
    "| \(id) | \(names[id]!) | \(value("ns_per_op").map(number) ?? "–") | "
      + "\(value("floor_ns_per_op").map(number) ?? "–") | "
      + "\(value("ratio").map { number($0) + "×" } ?? "–") | \(allocs) |")
}
if !order.isEmpty { lines.append("") }
lines.append("Medians of \(inputs.count) run\(inputs.count == 1 ? "" : "s").")
for id in order { if let note = notes[id] { lines.append("\(id): \(note).") } }
func kibibytes(_ key: String) -> String? {
  median(memory[key] ?? []).map { "\(Int($0) / 1024) KiB" }
}
if let added = kibibytes("added_rss_bytes_w9"), let peak = kibibytes("peak_rss_bytes_w9") {
  lines.append("W9: a store holding a 100,000-screen stack adds \(added) resident (peak \(peak)).")
}
if let after10k = kibibytes("rss_growth_bytes_w11_10k_cycles"),
  let after100k = kibibytes("rss_growth_bytes_w11_100k_cycles")
{
  lines.append(
    "W11: after a 1,000-cycle warm-up, navigation cycles grow resident memory by \(after10k) "
      + "over 10,000 cycles and \(after100k) over 100,000.")
}
if !scalingOrder.isEmpty {
  // A paragraph of its own: the line before ends with a period, which gets a blank line below.
  lines += [
    "| id | scaling row | ns/op at each size (floor) | growth | floor growth |",
    "|---|---|---|--:|--:|",
  ]
  for id in scalingOrder {
    let column = scalingColumns[id] ?? [:]
    // The median over the runs of the value at `index`.
    func value(_ key: String, _ index: Int) -> Double? {
      median((column[key] ?? []).compactMap { $0.indices.contains(index) ? $0[index] : nil })
    }
    let sizes = scalingSizes[id]!.enumerated().map { index, size in
      "\(size): \(value("ns_per_op", index).map(number) ?? "–") "
        + "(\(value("floor_ns_per_op", index).map(number) ?? "–"))"
    }
    lines.append(
      "| \(id) | \(names[id]!) | \(sizes.joined(separator: " · ")) | "
        + "\(value("growth", 0).map { number($0) + "×" } ?? "–") | "
        + "\(value("floor_growth", 0).map { number($0) + "×" } ?? "–") |")
  }
  lines.append("")
  for id in scalingOrder { if let note = notes[id] { lines.append("\(id): \(note).") } }
}
// Blank lines between the notes: each is a paragraph of its own in Markdown.
let table = lines.joined(separator: "\n").replacingOccurrences(of: ".\n", with: ".\n\n")

guard !targets.isEmpty else {
  print(table)
  exit(0)
}
for target in targets {
  guard let text = try? String(contentsOfFile: target, encoding: .utf8),
    let start = text.range(of: begin), let stop = text.range(of: end),
    start.upperBound <= stop.lowerBound
  else {
    FileHandle.standardError.write(Data("\(target): no \(begin) ... \(end) section\n".utf8))
    exit(1)
  }
  let updated = text.replacingCharacters(
    in: start.upperBound..<stop.lowerBound, with: "\n" + table + "\n")
  try! updated.write(toFile: target, atomically: true, encoding: .utf8)
  print("updated \(target)")
}
