// TapTap's app feature, ported from TCA (the "taptap-app-entry" seed): the app's entry point as
// a reducer, with a splash, a version check, an "update required" alert, and onboarding or
// home.
//
// The regions marked below are copied, character for character, into
// Sources/Cascade/Cascade.docc/MigratingFromTCA.md; ArticleSyncTests fails when they drift.
// The full app is Examples/TapTap.

import Cascade
import CascadeTesting
import Foundation
import Testing

/// Whether onboarding was completed, kept in user defaults.
private struct UserDefaultsClient: Sendable {
  var loadOnboardingState: @Sendable () -> Bool
}

/// Asks the store whether a newer version exists, and opens the store page.
private struct AppVersionCheckClient: Sendable {
  var isUpdateAvailable: @Sendable () async throws -> Bool
  var openAppStore: @Sendable () async -> Void
}

extension UserDefaultsClient: DependencyKey {
  static let liveValue = UserDefaultsClient(loadOnboardingState: {
    UserDefaults.standard.bool(forKey: "hasCompletedOnboarding")
  })
  static let testValue = UserDefaultsClient(
    loadOnboardingState: unimplemented("UserDefaultsClient.loadOnboardingState", placeholder: false)
  )
}

extension AppVersionCheckClient: DependencyKey {
  // The real app asks the store's lookup endpoint; see Examples/TapTap for a complete client.
  static let liveValue = AppVersionCheckClient(isUpdateAvailable: { false }, openAppStore: {})
  static let testValue = AppVersionCheckClient(
    isUpdateAvailable: unimplemented("AppVersionCheckClient.isUpdateAvailable"),
    openAppStore: { reportUnimplemented("AppVersionCheckClient.openAppStore") })
}

extension DependencyValues {
  fileprivate var userDefaultsClient: UserDefaultsClient {
    get { self[UserDefaultsClient.self] }
    set { self[UserDefaultsClient.self] = newValue }
  }

  fileprivate var appVersionCheckClient: AppVersionCheckClient {
    get { self[AppVersionCheckClient.self] }
    set { self[AppVersionCheckClient.self] = newValue }
  }
}

private struct OnboardingFeature: Reducer {
  struct State: Equatable { var page = 0 }

  enum Action: Equatable {
    case startButtonTapped
    case delegate(Delegate)

    enum Delegate: Equatable { case onboardingCompleted }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startButtonTapped:
      return .send(.delegate(.onboardingCompleted))
    case .delegate:
      return .none
    }
  }
}

// region: taptap-app
private struct AppFeature: Reducer {
  struct State: Equatable {
    var launchState: LaunchState = .splash
    var onboarding: OnboardingFeature.State?
    @PresentationState var alert: AlertState<Action.Alert>?

    enum LaunchState: Equatable {
      case splash
      case onboarding
      case home
    }
  }

  enum Action: Equatable {
    case onAppear
    case checkAppVersion
    case updateCheckResult(Bool)
    case splashFinished
    case onboarding(OnboardingFeature.Action)
    case alert(PresentationAction<Alert>)

    enum Alert: Equatable {
      case openAppStore
    }
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.userDefaultsClient) var userDefaultsClient
  @Dependency(\.appVersionCheckClient) var appVersionCheckClient

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1.55))
          await send(.checkAppVersion)
        }

      case .checkAppVersion:
        return .run { [appVersionCheckClient] send in
          do {
            let needUpdate = try await appVersionCheckClient.isUpdateAvailable()
            await send(.updateCheckResult(needUpdate))
          } catch {
            await send(.updateCheckResult(false))
          }
        }

      case let .updateCheckResult(needUpdate):
        guard needUpdate else { return .send(.splashFinished) }
        state.alert = AlertState {
          "Update required"
        } actions: {
          ButtonState(action: .openAppStore) { "Update" }
        } message: {
          "A new version is available.\nPlease update to keep using the app."
        }
        return .none

      case .splashFinished:
        if userDefaultsClient.loadOnboardingState() {
          state.launchState = .home
          state.onboarding = nil
        } else {
          state.launchState = .onboarding
          state.onboarding = OnboardingFeature.State()
        }
        return .none

      case .alert(.presented(.openAppStore)):
        return .run { [appVersionCheckClient] _ in
          await appVersionCheckClient.openAppStore()
        }

      case .onboarding(.delegate(.onboardingCompleted)):
        state.onboarding = nil
        state.launchState = .home
        return .none

      case .onboarding, .alert:
        return .none
      }
    }
    .ifLet(\.$alert, action: Action.alert)
    .ifLet(\.onboarding, action: Action.onboarding) {
      OnboardingFeature()
    }
  }
}
// endregion

// region: taptap-test
@MainActor
@Test func aFirstLaunchWaitsOutTheSplashThenOnboardsThenGoesHome() async {
  let clock = TestClock()
  let store = TestStore(initialState: AppFeature.State()) {
    AppFeature()
  } withDependencies: {
    $0.continuousClock = clock
    $0.appVersionCheckClient.isUpdateAvailable = { false }
    $0.userDefaultsClient.loadOnboardingState = { false }
  }

  await store.send(.onAppear)
  await clock.advance(by: .seconds(1.55))  // no real waiting
  await store.receive(.checkAppVersion)
  await store.receive(.updateCheckResult(false))
  await store.receive(.splashFinished) {
    $0.launchState = .onboarding
    $0.onboarding = OnboardingFeature.State()
  }
  await store.send(.onboarding(.startButtonTapped))
  await store.receive(.onboarding(.delegate(.onboardingCompleted))) {
    $0.launchState = .home
    $0.onboarding = nil
  }
  await store.finish()
}
// endregion

@MainActor
@Test func anOutdatedAppShowsTheAlertAndItsButtonOpensTheStore() async {
  let opened = Guarded(0)
  let clock = TestClock()
  let store = TestStore(initialState: AppFeature.State()) {
    AppFeature()
  } withDependencies: {
    $0.continuousClock = clock
    $0.appVersionCheckClient.isUpdateAvailable = { true }
    $0.appVersionCheckClient.openAppStore = { opened.withLock { $0 += 1 } }
  }

  await store.send(.onAppear)
  await clock.advance(by: .seconds(1.55))
  await store.receive(.checkAppVersion)
  await store.receive(.updateCheckResult(true)) {
    $0.alert = AlertState {
      "Update required"
    } actions: {
      ButtonState(action: .openAppStore) { "Update" }
    } message: {
      "A new version is available.\nPlease update to keep using the app."
    }
  }
  await store.send(.alert(.presented(.openAppStore))) { $0.alert = nil }
  await store.finish()
  #expect(opened.withLock { $0 } == 1)
  #expect(store.state.launchState == .splash)
}

@MainActor
@Test func aFailedVersionCheckNeverBlocksAnOnboardedUser() async {
  struct Offline: Error {}
  let store = TestStore(initialState: AppFeature.State()) {
    AppFeature()
  } withDependencies: {
    $0.continuousClock = ImmediateClock()
    $0.appVersionCheckClient.isUpdateAvailable = { throw Offline() }
    $0.userDefaultsClient.loadOnboardingState = { true }
  }

  await store.send(.onAppear)
  await store.receive(.checkAppVersion)
  await store.receive(.updateCheckResult(false))
  await store.receive(.splashFinished) { $0.launchState = .home }
  await store.finish()
}
