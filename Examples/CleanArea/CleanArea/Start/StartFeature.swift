import Cascade

/// The root: loads the policies, then owns the app's one navigation stack, the main screen at
/// its bottom and policy details above it.
///
/// ```swift
/// let store = Store(initialState: StartFeature.State()) { StartFeature() }
/// store.send(.onAppear)   // loads, then pushes the main screen
/// ```
public struct StartFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var phase = Phase.idle
    public var policies: [Policy] = []
    public var path = StackState<Path.State>()

    public enum Phase: Equatable, Sendable {
      case idle
      case loading
      case loaded
      /// Loading failed: the message the error screen shows, with a retry.
      case failed(String)
    }

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case onAppear
    case retryTapped
    case policiesLoaded(LoadResult)
    case path(StackActionOf<Path>)
  }

  public enum LoadResult: Equatable, Sendable {
    case success([Policy])
    case failure(PolicyLoadError)
  }

  /// The screens the stack can hold, written without macros: one `Scope` per case.
  public struct Path: Reducer {
    public enum State: Equatable, Sendable {
      case main(MainFeature.State)
      case detail(PolicyDetailFeature.State)
    }
    public enum Action: Equatable, Sendable {
      case main(MainFeature.Action)
      case detail(PolicyDetailFeature.Action)
    }
    public init() {}
    public var body: some Reducer<State, Action> {
      Scope(state: State.main, action: Action.main) { MainFeature() }
      Scope(state: State.detail, action: Action.detail) { PolicyDetailFeature() }
    }
  }

  @Dependency(\.policies) var policies
  @Dependency(\.bookmarks) var bookmarks

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        guard state.phase == .idle else { return .none }
        return load(&state)

      case .retryTapped:
        guard case .failed = state.phase else { return .none }
        return load(&state)

      case .policiesLoaded(.success(let policies)):
        state.phase = .loaded
        state.policies = policies
        state.path = [.main(MainFeature.State(policies: policies))]
        return .none

      case .policiesLoaded(.failure(let error)):
        state.phase = .failed(error.description)
        return .none

      case .path(.element(_, .main(.delegate(.showPolicy(let id))))),
        .path(.element(_, .detail(.delegate(.showPolicy(let id))))):
        guard let policy = state.policies.first(where: { $0.id == id }) else {
          reportIssue("StartFeature: no policy \(id) to show; the stack is unchanged.")
          return .none
        }
        let related = policy.relatedIDs.compactMap { related in
          state.policies.first { $0.id == related }
        }
        state.path.append(
          .detail(
            PolicyDetailFeature.State(
              policy: policy, related: related, isBookmarked: bookmarks.current().contains(id))))
        return .none

      case .path(.element(_, .detail(.delegate(.goHome)))):
        // Pop every detail at once; the main screen stays at the bottom.
        if !state.path.isEmpty { state.path.pop(to: state.path.id(at: 0)) }
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Path() }
  }

  private func load(_ state: inout State) -> Effect<Action> {
    state.phase = .loading
    return .run { [policies] send in
      do throws(PolicyLoadError) {
        await send(.policiesLoaded(.success(try await policies.load())))
      } catch {
        await send(.policiesLoaded(.failure(error)))
      }
    }
  }
}
