#!/usr/bin/env bash
# A package that depends on Cascade, as a user's does: by path, with targets named like every
# target Cascade's own package declares for its examples and tests (Counter, TapTap,
# ExampleSupport, EndToEndTests, ...). SwiftPM target names are global across a package graph,
# so this builds and tests only while Cascade takes none of these names from its users.
#
# One of them is a whole example app, not a stand-in: TouchSchool's library, its command-line
# program and its tests, with the examples' support target, copied in as a user would copy
# them. From outside the package only Cascade's and CascadeTesting's public API is visible, so
# this fails if an example uses `package` API (a `Guarded` lock, `.hangGuard`, ...).
# About 2.5 minutes on a fresh temporary folder here (Cascade built in debug, then the app's 39
# tests). Usage: .ci/dependent-package.sh (from anywhere; uses a temporary folder, removed at the end).
set -euo pipefail
cascade="$(cd "$(dirname "$0")/.." && pwd)"

# The cheap check first: nothing under Examples/ may reach past Cascade's public API. (The
# build below catches the rest, for the one app it builds.)
if grep -rnE '@testable import Cascade(Testing)?\b|\bGuarded\b|\.hangGuard\b|\bRuntimeWarnings\b' \
  "$cascade/Examples" --include='*.swift'; then
  echo "error: an example above uses Cascade's package-only API or @testable import Cascade;" \
    "examples use only what a user's package can (Synchronization.Mutex or NSLock, .timeLimit," \
    "CascadeTesting's pollUntil and withIssueHandler)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A path dependency's identity is its folder's name.
identity=$(basename "$cascade" | tr '[:upper:]' '[:lower:]')

# The whole app: its sources, resources and tests as they are, with Cascade's target names
# for the app and the support target replaced by the short names a user would give them.
app=TouchSchool
mkdir -p "$work/Sources" "$work/Tests"
cp -R "$cascade/Examples/$app/$app" "$work/Sources/$app"
cp -R "$cascade/Examples/$app/${app}CLI" "$work/Sources/${app}CLI"
cp -R "$cascade/Examples/$app/Tests" "$work/Tests/${app}Tests"
cp -R "$cascade/Examples/ExampleSupport" "$work/Sources/ExampleSupport"
find "$work/Sources" "$work/Tests" -name '*.swift' -exec sed -i.orig \
  -e "s/\bCascadeExample$app\b/$app/g" -e 's/\bCascadeExampleSupport\b/ExampleSupport/g' {} +
find "$work" -name '*.orig' -delete
cascadeProduct=".product(name: \"Cascade\", package: \"$identity\")"
testingProduct=".product(name: \"CascadeTesting\", package: \"$identity\")"
targets="    .target(name: \"ExampleSupport\", dependencies: [$cascadeProduct]),
    .target(
      name: \"$app\", dependencies: [$cascadeProduct, \"ExampleSupport\"],
      resources: [.process(\"Resources\")]),
    .executableTarget(name: \"${app}CLI\", dependencies: [\"$app\", \"ExampleSupport\"]),
    .testTarget(
      name: \"${app}Tests\", dependencies: [\"$app\", \"ExampleSupport\", $testingProduct]),
"

# Stand-ins named like the other targets: only their names matter.
names=(Counter TapTap SeoulSalam Qapple CleanArea SyncUps)
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
swift run ${app}CLI >/dev/null  # its scripted scenario, which exits non-zero if it fails
swift test
