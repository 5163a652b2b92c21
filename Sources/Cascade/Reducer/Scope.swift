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
    _compile()._reduce(into: &state, action: action)
  }

  /// Compiles to a scope over the child's compiled form: a tree of scopes over concrete
  /// features runs as one specialized function.
  @inlinable
  public func _compile() -> _CompiledScope<ParentState, ParentAction, Child._Compiled> {
    _CompiledScope(
      child: child._compile(), toChildState: toChildState, toChildAction: toChildAction)
  }
}

/// A compiled ``Scope``. A class, so that a level holds its child tree by reference: a
/// struct nesting the whole tree below it would be copied into each level's closures on every
/// action.
public final class _CompiledScope<ParentState, ParentAction, Child: _CompiledReducer> {
  @usableFromInline let child: Child
  /// The child state's place when it is a property (nil for an enum case).
  @usableFromInline let path: _StatePath<ParentState, Child.State>?
  /// The child state's case when it is one of the parent state's (nil for a key path).
  @usableFromInline let casePath: _CaseScope<ParentState, Child.State>?
  @usableFromInline let route: _CaseRoute<ParentAction, Child.Action>

  @inlinable
  init<R: Reducer>(
    child: Child,
    toChildState: Scope<ParentState, ParentAction, R>.StatePath,
    toChildAction: CasePath<ParentAction, Child.Action>
  ) where R.State == Child.State, R.Action == Child.Action {
    self.child = child
    switch toChildState {
    case let .keyPath(keyPath):
      self.path = _StatePath(keyPath)
      self.casePath = nil
    case let .casePath(casePath, fileID, line):
      self.path = nil
      self.casePath = _CaseScope(path: casePath, fileID: fileID, line: line)
    }
    route = toChildAction._route
  }
}

extension _CompiledScope: _CompiledReducer {
  /// The common case inline: a case path that has learned its case, into a stored property at
  /// its offset. A path written with functions, enum state and a computed property go out of
  /// line: inlined, they gave this frame, one per level of every action, more registers to
  /// save and a stack buffer to set up.
  @inlinable
  public func _reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let extracted = route.constructor.extract(action, as: Child.Action.self) else {
      return _reduceExtracting(into: &state, action: action)
    }
    guard let childAction = extracted else { return .none }
    // Not an enum case, so a property: `path` is set. (`if let path` copied it, retaining its
    // key path at every level of every action.)
    guard casePath == nil, let offset = path.unsafelyUnwrapped.offset else {
      return _reduceOutOfLine(into: &state, action: action, childAction)
    }
    return ._embedding(route.embed) {
      _modifyStored(at: offset, in: &state) { child._reduce(into: &$0, action: childAction) }
    }
  }

  /// A case path that has not learned its case yet, or was written with explicit functions.
  @inlinable @inline(never)
  func _reduceExtracting(into state: inout ParentState, action: ParentAction) -> Effect<
    ParentAction
  > {
    guard let childAction = route.extractFunction(action) else { return .none }
    return _reduceOutOfLine(into: &state, action: action, childAction)
  }

  /// Child state in a case of an enum, or in a property reached through its key path.
  @inlinable @inline(never)
  func _reduceOutOfLine(
    into state: inout ParentState, action: ParentAction, _ childAction: Child.Action
  ) -> Effect<ParentAction> {
    if let casePath {
      return casePath.reduce(&state, action, childAction, child, embed: route.embed)
    }
    return ._embedding(route.embed) {
      path.unsafelyUnwrapped.modify(&state) { child._reduce(into: &$0, action: childAction) }
    }
  }
}

/// A `Scope` to one case of enum state. A class, so that a key-path scope tests one word for
/// it on every action.
@usableFromInline
final class _CaseScope<ParentState, ChildState> {
  @usableFromInline let route: _CaseRoute<ParentState, ChildState>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(path: CasePath<ParentState, ChildState>, fileID: StaticString, line: UInt) {
    self.route = path._route
    self.fileID = fileID
    self.line = line
  }

  @inlinable
  func reduce<Child: _CompiledReducer, ParentAction>(
    _ state: inout ParentState, _ action: ParentAction, _ childAction: Child.Action,
    _ child: Child, embed: @escaping @Sendable (Child.Action) -> ParentAction
  ) -> Effect<ParentAction> where Child.State == ChildState {
    guard var childState = route.extract(state) else {
      _reportScopeCaseMismatch(action, state, fileID: fileID, line: line)
      return .none
    }
    let effect = Effect._embedding(embed) { child._reduce(into: &childState, action: childAction) }
    state = route.embed(childState)
    return effect
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
