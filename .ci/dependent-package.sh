#!/usr/bin/env bash
# A package that depends on Cascade, as a user's does: by path, with targets named like every
# target Cascade's own package declares for its examples and tests (Counter, TapTap,
# ExampleSupport, EndToEndTests, ...). SwiftPM target names are global across a package graph,
# so this builds and tests only while Cascade takes none of these names from its users.
# Usage: .ci/dependent-package.sh (from anywhere; uses a temporary folder, removed at the end).
set -euo pipefail
cascade="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A path dependency's identity is its folder's name.
identity=$(basename "$cascade" | tr '[:upper:]' '[:lower:]')

names=(Counter TapTap SeoulSalam Qapple CleanArea TouchSchool SyncUps ExampleSupport)
targets=""
for name in "${names[@]}"; do
  mkdir -p "$work/Sources/$name" "$work/Sources/${name}CLI" "$work/Tests/${name}Tests"
  targets+="    .target(name: \"$name\", dependencies: [.product(name: \"Cascade\", package: \"$identity\")]),
    .executableTarget(name: \"${name}CLI\", dependencies: [\"$name\"]),
    .testTarget(
      name: \"${name}Tests\",
      dependencies: [\"$name\", .product(name: \"CascadeTesting\", package: \"$identity\")]),
"
  cat >"$work/Sources/$name/Feature.swift" <<EOF
import Cascade

public struct Feature: Reducer {
  public struct State: Equatable { public var count = 0; public init() {} }
  public enum Action { case incrementTapped }
  public init() {}
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}
EOF
  cat >"$work/Sources/${name}CLI/main.swift" <<EOF
import Cascade
import $name

let store = Store(initialState: Feature.State()) { Feature() }
store.send(.incrementTapped)
print(store.state.count)
EOF
  cat >"$work/Tests/${name}Tests/FeatureTests.swift" <<EOF
import CascadeTesting
import Testing
import $name

@MainActor
@Test func incrementing() async {
  let store = TestStore(initialState: Feature.State()) { Feature() }
  await store.send(.incrementTapped) { \$0.count = 1 }
}
EOF
done
mkdir -p "$work/Sources/AllocationCounter" "$work/Tests/EndToEndTests" "$work/Tests/MigrationGuideTests"
echo 'public let allocations = 0' >"$work/Sources/AllocationCounter/Counter.swift"
for name in EndToEndTests MigrationGuideTests; do
  echo 'enum NameHolder {}' >"$work/Tests/$name/$name.swift"  # only the name matters
done
targets+='    .target(name: "AllocationCounter"),
    .testTarget(name: "EndToEndTests"),
    .testTarget(name: "MigrationGuideTests"),
'

cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "UsersApp",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(path: "$cascade")],
  targets: [
$targets  ]
)
EOF

cd "$work"
swift build --build-tests
swift run CounterCLI
swift test
