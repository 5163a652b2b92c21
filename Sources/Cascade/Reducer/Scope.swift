/// Runs a child reducer on a part of the parent's state, for the parent actions that carry a
/// child action.
///
/// A parent embeds a child feature by naming where the child's state lives (a key path, or an
/// enum case of the parent's state) and which action case carries the child's actions (the
/// case constructor is enough).
///
/// ```swift
/// struct App: Reducer {
///   struct State { var profile = Profile.State() }
///   enum Action { case profile(Profile.Action) }
///
///   var body: some Reducer<State, Action> {
///     Scope(state: \.profile, action: Action.profile) {
///       Profile()
///     }
///   }
/// }
/// ```
///
/// The child's effects are embedded with the same case, so the actions they send come back
/// through the parent.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(CasePath<ParentState, Child.State>, fileID: StaticString, line: UInt)
  }

  @usableFromInline let toChildState: StatePath
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes to child state at a key path.
  ///
  /// - Parameters:
  ///   - toChildState: Where the child's state lives in the parent's.
  ///   - toChildAction: The parent action case that carries the child's actions, e.g.
  ///     `Action.profile`.
  ///   - child: The child reducer.
  ///   - fileID: The file a warning about `toChildAction` names (the caller's, by default).
  ///   - line: The line a warning about `toChildAction` names.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      state: toChildState, action: CasePath(toChildAction, fileID: fileID, line: line),
      child: child)
  }

  /// Scopes to child state at a key path, with an explicit action case path.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
  }

  /// Scopes to one case of enum state: the child runs only while the parent's state is in that
  /// case. An action for the child while it is in another case is dropped with a warning.
  ///
  /// ```swift
  /// enum State { case loggedIn(Home.State), loggedOut(Login.State) }
  ///
  /// Scope(state: CasePath(State.loggedIn), action: Action.home) { Home() }
  /// ```
  public init<ChildState, ChildAction>(
    state toChildState: CasePath<ParentState, ChildState>,
    action toChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(toChildState, fileID: fileID, line: line)
    self.toChildAction = CasePath(toChildAction, fileID: fileID, line: line)
    self.child = child()
  }

  /// Scopes to one case of enum state, given by its case constructor: the form a path or
  /// destination feature uses for each of its screens.
  ///
  /// ```swift
  /// Scope(state: Path.State.detail, action: Path.Action.detail) { Detail() }
  /// ```
  public init<ChildState, ChildAction>(
    state toChildState: @escaping @Sendable (ChildState) -> ParentState,
    action toChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      state: CasePath(toChildState, fileID: fileID, line: line), action: toChildAction,
      child: child, fileID: fileID, line: line)
  }

  /// Runs the child reducer on the child's state when `action` carries a child action (and,
  /// for an enum case, the state is in that case), and embeds its effects; any other action
  /// changes nothing and returns `.none`.
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    _reduceFunction()(&state, action)
  }

  @inlinable
  public func _reduceFunction() -> _ReduceFunction<ParentState, ParentAction> {
    let child = child._reduceFunction()
    let extract = toChildAction._extract
    let constructor = toChildAction._constructor
    let embed = toChildAction._embed
    switch toChildState {
    case let .keyPath(keyPath):
      let scope = _KeyPathScope(
        child: child, extract: extract, constructor: constructor, embed: embed,
        path: _StatePath(keyPath))
      return { state, action in scope.reduce(&state, action) }
    case let .casePath(casePath, fileID, line):
      return { state, action in
        guard let childAction = _extractPayload(action, constructor, extract) else { return .none }
        guard var childState = casePath.extract(from: state) else {
          _reportScopeCaseMismatch(action, state, fileID: fileID, line: line)
          return .none
        }
        let effect = Effect._embedding(embed) { child(&childState, childAction) }
        state = casePath.embed(childState)
        return effect
      }
    }
  }
}

/// What a `Scope` over a key path does on every action, with everything it needs in one
/// object: the closure the scope returns then captures that object alone, and calling it hands
/// over one pointer instead of the dozen words its parts would take (a level of composition
/// costs the move of every captured word otherwise).
@usableFromInline
final class _KeyPathScope<ParentState, ParentAction, ChildState, ChildAction> {
  @usableFromInline let child: _ReduceFunction<ChildState, ChildAction>
  @usableFromInline let extract: @Sendable (ParentAction) -> ChildAction?
  @usableFromInline let constructor: _ConstructorExtraction
  @usableFromInline let embed: @Sendable (ChildAction) -> ParentAction
  @usableFromInline let path: _StatePath<ParentState, ChildState>

  @inlinable
  init(
    child: @escaping _ReduceFunction<ChildState, ChildAction>,
    extract: @escaping @Sendable (ParentAction) -> ChildAction?,
    constructor: _ConstructorExtraction,
    embed: @escaping @Sendable (ChildAction) -> ParentAction,
    path: _StatePath<ParentState, ChildState>
  ) {
    self.child = child
    self.extract = extract
    self.constructor = constructor
    self.embed = embed
    self.path = path
  }

  @inlinable
  func reduce(_ state: inout ParentState, _ action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = _extractPayload(action, constructor, extract) else { return .none }
    return ._embedding(embed) { path.modify(&state) { child(&$0, childAction) } }
  }
}

@usableFromInline
func _reportScopeCaseMismatch<Action, State>(
  _ action: Action, _ state: State, fileID: StaticString, line: UInt
) {
  reportRuntimeWarning(
    """
    A Scope received a child action while the parent's state was in another case.

      Action: \(_describe(action))
      State case: \(_caseName(state))

    The action was dropped. This usually means an effect of the child sent it after the \
    parent's state changed case. Cancel the child's effects when leaving the case, or \
    use 'ifCaseLet', which does it for you.
    """,
    fileID: fileID, line: line)
}
