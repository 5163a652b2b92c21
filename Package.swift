// swift-tools-version: 6.2
import PackageDescription

// Cascade depends on the Swift toolchain alone: no package dependencies, no macros.
// A package that depends on Cascade sees the Cascade and CascadeTesting products; SwiftPM target
// names are global across a package graph, so every other target here has a Cascade prefix
// (CascadeExampleCounter, not Counter), leaving the common names to the user's own targets.
// Apple minimums follow from `Synchronization.Mutex` (iOS 18 / macOS 15).
let package = Package(
  name: "Cascade",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Cascade", targets: ["Cascade"]),
    .library(name: "CascadeTesting", targets: ["CascadeTesting"]),
    .executable(name: "counter", targets: ["CascadeExampleCounterCLI"]),
    .executable(name: "taptap", targets: ["CascadeExampleTapTapCLI"]),
    .executable(name: "seoul-salam", targets: ["CascadeExampleSeoulSalamCLI"]),
    .executable(name: "qapple", targets: ["CascadeExampleQappleCLI"]),
    .executable(name: "clean-area", targets: ["CascadeExampleCleanAreaCLI"]),
    .executable(name: "touch-school", targets: ["CascadeExampleTouchSchoolCLI"]),
    .executable(name: "cascade-examples", targets: ["CascadeExamples"]),
    .executable(name: "cascade-benchmark", targets: ["cascade-benchmark"]),
    .executable(name: "cascade-inspect", targets: ["cascade-inspect"]),
  ],
  targets: [
    .target(name: "Cascade"),
    .target(name: "CascadeTesting", dependencies: ["Cascade"]),
    // The benchmark's heap-allocation counter: interposes glibc's malloc, so Linux only.
    .target(
      name: "CascadeAllocationCounter", path: "Sources/AllocationCounter",
      cSettings: [.define("CASCADE_COUNT_ALLOCATIONS", .when(platforms: [.linux]))]),
    .executableTarget(
      name: "cascade-benchmark",
      dependencies: ["Cascade", "CascadeTesting", "CascadeAllocationCounter"]),
    // The inspector's HTML page, its style and script as files; only cascade-inspect uses it.
    .target(
      name: "CascadeInspector", dependencies: ["Cascade"], resources: [.copy("Resources")]),
    // Turns a recorded session into the inspector's HTML page.
    .executableTarget(name: "cascade-inspect", dependencies: ["Cascade", "CascadeInspector"]),
    // Writes shared file storage in a loop until killed: the crash-safety tests' child process.
    .executableTarget(
      name: "shared-crash-writer", dependencies: ["Cascade"], path: "Tests/SharedCrashWriter"),

    // Example apps: a feature library and a headless executable each.
    .target(
      name: "CascadeExampleSupport", dependencies: ["Cascade"], path: "Examples/ExampleSupport"),
    .target(
      name: "CascadeExampleCounter", dependencies: ["Cascade", "CascadeExampleSupport"],
      path: "Examples/Counter/Counter"),
    .executableTarget(
      name: "CascadeExampleCounterCLI",
      dependencies: ["CascadeExampleCounter", "CascadeExampleSupport"],
      path: "Examples/Counter/CounterCLI"),
    .target(
      name: "CascadeExampleTapTap", dependencies: ["Cascade", "CascadeExampleSupport"],
      path: "Examples/TapTap/TapTap",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "CascadeExampleTapTapCLI",
      dependencies: ["CascadeExampleTapTap", "CascadeExampleSupport"],
      path: "Examples/TapTap/TapTapCLI"),
    .target(
      name: "CascadeExampleSeoulSalam", dependencies: ["Cascade", "CascadeExampleSupport"],
      path: "Examples/SeoulSalam/SeoulSalam",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "CascadeExampleSeoulSalamCLI",
      dependencies: ["CascadeExampleSeoulSalam", "CascadeExampleSupport"],
      path: "Examples/SeoulSalam/SeoulSalamCLI"
    ),
    .target(
      name: "CascadeExampleQapple", dependencies: ["Cascade", "CascadeExampleSupport"],
      path: "Examples/Qapple/Qapple",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "CascadeExampleQappleCLI",
      dependencies: ["CascadeExampleQapple", "CascadeExampleSupport"],
      path: "Examples/Qapple/QappleCLI"),
    .target(
      name: "CascadeExampleCleanArea", dependencies: ["Cascade", "CascadeExampleSupport"],
      path: "Examples/CleanArea/CleanArea",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "CascadeExampleCleanAreaCLI",
      dependencies: ["CascadeExampleCleanArea", "CascadeExampleSupport"],
      path: "Examples/CleanArea/CleanAreaCLI"),
    .target(
      name: "CascadeExampleTouchSchool", dependencies: ["Cascade", "CascadeExampleSupport"],
      path: "Examples/TouchSchool/TouchSchool",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "CascadeExampleTouchSchoolCLI",
      dependencies: ["CascadeExampleTouchSchool", "CascadeExampleSupport"],
      path: "Examples/TouchSchool/TouchSchoolCLI"),
    .target(
      name: "CascadeExampleSyncUps", dependencies: ["Cascade"], path: "Examples/SyncUps/SyncUps"),
    .executableTarget(
      name: "CascadeExamples",
      dependencies: [
        "CascadeExampleCounter", "CascadeExampleTapTap", "CascadeExampleSeoulSalam",
        "CascadeExampleQapple", "CascadeExampleCleanArea", "CascadeExampleTouchSchool",
        "CascadeExampleSupport",
      ],
      path: "Examples/CascadeExamples"),

    // Runs the built example executables as a user would; needs `swift build` and CASCADE_E2E=1.
    .testTarget(
      name: "CascadeEndToEndTests", dependencies: ["CascadeTesting"],
      path: "Examples/EndToEndTests"),
    .testTarget(
      name: "CascadeExampleSupportTests",
      dependencies: ["CascadeExampleSupport", "CascadeTesting"],
      path: "Examples/ExampleSupportTests"),
    // What more than one test target uses (Ticker, Box, ...), written once; not a product.
    .target(
      name: "CascadeTestSupport", dependencies: ["Cascade", "CascadeTesting"],
      path: "Tests/CascadeTestSupport"),
    .testTarget(
      name: "CascadeTests",
      dependencies: ["Cascade", "CascadeTesting", "CascadeTestSupport", "CascadeInspector"]),
    .testTarget(
      name: "CascadeTestingTests",
      dependencies: ["Cascade", "CascadeTesting", "CascadeTestSupport"]),
    .testTarget(
      name: "CascadeMigrationGuideTests", dependencies: ["Cascade", "CascadeTesting"],
      path: "Tests/MigrationGuideTests"),
    .testTarget(
      name: "CascadeExampleCounterTests",
      dependencies: ["CascadeExampleCounter", "CascadeTesting"],
      path: "Examples/Counter/Tests"),
    .testTarget(
      name: "CascadeExampleTapTapTests",
      dependencies: ["CascadeExampleTapTap", "CascadeExampleSupport", "CascadeTesting"],
      path: "Examples/TapTap/Tests"),
    .testTarget(
      name: "CascadeExampleSeoulSalamTests",
      dependencies: ["CascadeExampleSeoulSalam", "CascadeExampleSupport", "CascadeTesting"],
      path: "Examples/SeoulSalam/Tests"),
    .testTarget(
      name: "CascadeExampleQappleTests",
      dependencies: ["CascadeExampleQapple", "CascadeExampleSupport", "CascadeTesting"],
      path: "Examples/Qapple/Tests"),
    .testTarget(
      name: "CascadeExampleCleanAreaTests",
      dependencies: ["CascadeExampleCleanArea", "CascadeExampleSupport", "CascadeTesting"],
      path: "Examples/CleanArea/Tests"),
    .testTarget(
      name: "CascadeExampleTouchSchoolTests",
      dependencies: ["CascadeExampleTouchSchool", "CascadeExampleSupport", "CascadeTesting"],
      path: "Examples/TouchSchool/Tests"),
    .testTarget(
      name: "CascadeExampleSyncUpsTests",
      dependencies: ["CascadeExampleSyncUps", "CascadeTesting"],
      path: "Examples/SyncUps/Tests"),
  ]
)
