// swift-tools-version: 6.0
import PackageDescription

// Cascade depends on the Swift toolchain alone: no package dependencies, no macros.
// Apple minimums follow from `Synchronization.Mutex` (iOS 18 / macOS 15).
let package = Package(
  name: "Cascade",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Cascade", targets: ["Cascade"]),
    .library(name: "CascadeTesting", targets: ["CascadeTesting"]),
    .executable(name: "counter", targets: ["CounterCLI"]),
    .executable(name: "taptap", targets: ["TapTapCLI"]),
    .executable(name: "seoul-salam", targets: ["SeoulSalamCLI"]),
    .executable(name: "qapple", targets: ["QappleCLI"]),
    .executable(name: "clean-area", targets: ["CleanAreaCLI"]),
    .executable(name: "touch-school", targets: ["TouchSchoolCLI"]),
    .executable(name: "cascade-examples", targets: ["CascadeExamples"]),
    .executable(name: "cascade-benchmark", targets: ["cascade-benchmark"]),
    .executable(name: "cascade-inspect", targets: ["cascade-inspect"]),
  ],
  targets: [
    .target(name: "Cascade"),
    .target(name: "CascadeTesting", dependencies: ["Cascade"]),
    // The benchmark's heap-allocation counter: interposes glibc's malloc, so Linux only.
    .target(
      name: "AllocationCounter",
      cSettings: [.define("CASCADE_COUNT_ALLOCATIONS", .when(platforms: [.linux]))]),
    .executableTarget(
      name: "cascade-benchmark", dependencies: ["Cascade", "CascadeTesting", "AllocationCounter"]),
    // Turns a recorded session into the inspector's HTML page.
    .executableTarget(name: "cascade-inspect", dependencies: ["Cascade"]),
    // Writes shared file storage in a loop until killed: the crash-safety tests' child process.
    .executableTarget(
      name: "shared-crash-writer", dependencies: ["Cascade"], path: "Tests/SharedCrashWriter"),

    // Example apps: a feature library and a headless executable each.
    .target(name: "ExampleSupport", dependencies: ["Cascade"], path: "Examples/ExampleSupport"),
    .target(name: "Counter", dependencies: ["Cascade"], path: "Examples/Counter/Counter"),
    .executableTarget(
      name: "CounterCLI", dependencies: ["Counter", "ExampleSupport"],
      path: "Examples/Counter/CounterCLI"),
    .target(
      name: "TapTap", dependencies: ["Cascade", "ExampleSupport"], path: "Examples/TapTap/TapTap",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "TapTapCLI", dependencies: ["TapTap", "ExampleSupport"],
      path: "Examples/TapTap/TapTapCLI"),
    .target(
      name: "SeoulSalam", dependencies: ["Cascade", "ExampleSupport"],
      path: "Examples/SeoulSalam/SeoulSalam",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "SeoulSalamCLI", dependencies: ["SeoulSalam", "ExampleSupport"],
      path: "Examples/SeoulSalam/SeoulSalamCLI"
    ),
    .target(
      name: "Qapple", dependencies: ["Cascade", "ExampleSupport"], path: "Examples/Qapple/Qapple",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "QappleCLI", dependencies: ["Qapple", "ExampleSupport"],
      path: "Examples/Qapple/QappleCLI"),
    .target(
      name: "CleanArea", dependencies: ["Cascade", "ExampleSupport"],
      path: "Examples/CleanArea/CleanArea",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "CleanAreaCLI", dependencies: ["CleanArea", "ExampleSupport"],
      path: "Examples/CleanArea/CleanAreaCLI"),
    .target(
      name: "TouchSchool", dependencies: ["Cascade", "ExampleSupport"],
      path: "Examples/TouchSchool/TouchSchool",
      resources: [.process("Resources")]),
    .executableTarget(
      name: "TouchSchoolCLI", dependencies: ["TouchSchool", "ExampleSupport"],
      path: "Examples/TouchSchool/TouchSchoolCLI"),
    .executableTarget(
      name: "CascadeExamples",
      dependencies: [
        "Counter", "TapTap", "SeoulSalam", "Qapple", "CleanArea", "TouchSchool", "ExampleSupport",
      ],
      path: "Examples/CascadeExamples"),

    // Runs the built example executables as a user would; needs `swift build` and CASCADE_E2E=1.
    .testTarget(name: "EndToEndTests", path: "Examples/EndToEndTests"),
    .testTarget(
      name: "ExampleSupportTests", dependencies: ["ExampleSupport", "CascadeTesting"],
      path: "Examples/ExampleSupportTests"),
    .testTarget(name: "CascadeTests", dependencies: ["Cascade", "CascadeTesting"]),
    .testTarget(name: "CascadeTestingTests", dependencies: ["Cascade", "CascadeTesting"]),
    .testTarget(name: "MigrationGuideTests", dependencies: ["Cascade", "CascadeTesting"]),
    .testTarget(
      name: "CounterTests", dependencies: ["Counter", "CascadeTesting"],
      path: "Examples/Counter/Tests"),
    .testTarget(
      name: "TapTapTests", dependencies: ["TapTap", "ExampleSupport", "CascadeTesting"],
      path: "Examples/TapTap/Tests"),
    .testTarget(
      name: "SeoulSalamTests", dependencies: ["SeoulSalam", "CascadeTesting"],
      path: "Examples/SeoulSalam/Tests"),
    .testTarget(
      name: "QappleTests", dependencies: ["Qapple", "ExampleSupport", "CascadeTesting"],
      path: "Examples/Qapple/Tests"),
    .testTarget(
      name: "CleanAreaTests", dependencies: ["CleanArea", "ExampleSupport", "CascadeTesting"],
      path: "Examples/CleanArea/Tests"),
    .testTarget(
      name: "TouchSchoolTests", dependencies: ["TouchSchool", "ExampleSupport", "CascadeTesting"],
      path: "Examples/TouchSchool/Tests"),
  ]
)
