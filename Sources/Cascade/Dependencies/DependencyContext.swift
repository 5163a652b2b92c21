import Foundation

/// Where the program runs, which decides the default value of every dependency.
public enum DependencyContext: String, Sendable {
  /// The app: dependencies use their `liveValue`.
  case live
  /// Previews and offline demos: dependencies use their `previewValue`.
  case preview
  /// Tests: dependencies use their `testValue`, and one without a test value fails the test.
  case test

  /// The context of this process: `test` when running under a test runner, else `live`.
  /// The `CASCADE_DEPENDENCY_CONTEXT` environment variable (`live`, `preview`, `test`)
  /// overrides the detection.
  public static let current: DependencyContext = {
    let environment = ProcessInfo.processInfo.environment
    if let name = environment["CASCADE_DEPENDENCY_CONTEXT"],
      let context = DependencyContext(rawValue: name)
    {
      return context
    }
    let process = ProcessInfo.processInfo.processName
    let path = CommandLine.arguments.first ?? ""
    let isTestRunner =
      process.contains("xctest") || path.hasSuffix(".xctest")
      || process.contains("swiftpm-testing-helper")
      || environment["XCTestConfigurationFilePath"] != nil
      || environment["XCTestBundlePath"] != nil
    return isTestRunner ? .test : .live
  }()
}
