import Cascade

/// Who is signed in: a platform feature (sign-in, keychain) behind a struct of closures.
public struct SessionService: Sendable {
  public var currentUserID: @Sendable () -> Int

  public init(currentUserID: @escaping @Sendable () -> Int) {
    self.currentUserID = currentUserID
  }
}

extension SessionService: DependencyKey {
  public static let liveValue: SessionService = SessionService(currentUserID: { 7 })
  public static let testValue: SessionService = SessionService(
    currentUserID: unimplemented("SessionService.currentUserID", placeholder: 0))
  public static let previewValue: SessionService = SessionService(currentUserID: { 7 })
}

extension DependencyValues {
  public var session: SessionService {
    get { self[SessionService.self] }
    set { self[SessionService.self] = newValue }
  }
}
