import Cascade
import Foundation

/// The app's entry point as a feature: the splash, the version check, then onboarding or home.
public struct AppFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var launch = Launch.splash
    /// Why the version check could not run; the app went on, the user is told.
    public var versionCheckNote: String?
    /// Why the saved settings could not be read; the app started fresh, the user is told.
    public var settingsNote: String?
    @PresentationState public var alert: AlertState<Action.Alert>?

    public enum Launch: Equatable, Sendable {
      case splash
      case onboarding(OnboardingFeature.State)
      case home(HomeFeature.State)
    }

    public init() {}

    /// The onboarding screen's state while it shows.
    public var onboarding: OnboardingFeature.State? {
      get { if case let .onboarding(state) = launch { state } else { nil } }
      set { if let newValue { launch = .onboarding(newValue) } }
    }

    /// The home screen's state while it shows.
    public var home: HomeFeature.State? {
      get { if case let .home(state) = launch { state } else { nil } }
      set { if let newValue { launch = .home(newValue) } }
    }
  }

  public enum Action: Equatable, Sendable {
    case onAppear
    case splashFinished
    case versionChecked(VersionCheckResult)
    case alert(PresentationAction<Alert>)
    case onboarding(OnboardingFeature.Action)
    case home(HomeFeature.Action)

    public enum Alert: Equatable, Sendable { case updateButtonTapped }
  }

  public enum VersionCheckResult: Equatable, Sendable {
    case upToDate
    case updateRequired(StoreRelease)
    case failed(VersionCheckError)
  }

  /// How long the splash shows.
  public let splashDuration: Duration

  @Dependency(\.continuousClock) var clock
  @Dependency(\.appVersion) var appVersion
  @Dependency(\.settings) var settings
  @Dependency(\.tapTapPlantedBug) var plantedBug

  public init(splashDuration: Duration = .seconds(1.55)) {
    self.splashDuration = splashDuration
  }

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .run { [clock, duration = splashDuration] send in
          try await clock.sleep(for: duration)
          await send(.splashFinished)
        }

      case .splashFinished:
        return .run { [appVersion] send in
          do throws(VersionCheckError) {
            let release = try await appVersion.latestRelease()
            await send(
              .versionChecked(
                release.version > appVersion.currentVersion() ? .updateRequired(release) : .upToDate
              ))
          } catch {
            await send(.versionChecked(.failed(error)))
          }
        }

      case let .versionChecked(.updateRequired(release)):
        state.alert = AlertState {
          "Update required"
        } actions: {
          ButtonState(action: .updateButtonTapped) { "Update" }
        } message: {
          TextState(
            "Version \(release.version) is available. Please update to keep using TapTap.")
        }
        return .none

      case let .versionChecked(.failed(error)):
        // A failed check never blocks the user: go on as if no update were needed.
        state.versionCheckNote = "Could not check for updates: \(error)."
        openApp(&state)
        return .none

      case .versionChecked(.upToDate):
        openApp(&state)
        return .none

      case .alert(.presented(.updateButtonTapped)):
        return .run { [appVersion] _ in
          if let release = try? await appVersion.latestRelease() {
            await appVersion.openStore(release.storeURL)
          }
        }

      case .alert:
        return .none

      case .onboarding(.delegate(.completed)):
        state.launch = .home(HomeFeature.State(count: settings.tapCount()))
        return .run { [settings] _ in settings.setHasCompletedOnboarding(true) }

      case .onboarding, .home:
        return .none
      }
    }
    .ifLet(\.$alert, action: Action.alert)
    .ifLet(\.onboarding, action: Action.onboarding) { OnboardingFeature() }
    .ifLet(\.home, action: Action.home) { HomeFeature() }
  }

  /// Opens onboarding or home, once: a later check (the app appearing again, a late
  /// response) leaves an open app as it is, rather than reopening it from settings that a save
  /// in flight has not reached yet.
  private func openApp(_ state: inout State) {
    guard state.launch == .splash || plantedBug == .lateCheckReopensTheApp else { return }
    state.settingsNote = settings.problem()
    state.launch =
      settings.hasCompletedOnboarding()
      ? .home(HomeFeature.State(count: settings.tapCount()))
      : .onboarding(OnboardingFeature.State())
  }
}
