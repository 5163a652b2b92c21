import Cascade

extension DependencyValues {
  /// Opens the app's page in the system settings, where the user can allow speech recognition.
  var openSettings: @Sendable () async -> Void {
    get { self[OpenSettingsKey.self] }
    set { self[OpenSettingsKey.self] = newValue }
  }

  private enum OpenSettingsKey: DependencyKey {
    typealias Value = @Sendable () async -> Void
    /// A headless program has no settings screen to open.
    static let liveValue: @Sendable () async -> Void = {}
    static let testValue: @Sendable () async -> Void = unimplemented(
      "DependencyValues.openSettings", placeholder: ())
  }
}
