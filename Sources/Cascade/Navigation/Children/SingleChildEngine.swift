/// The sequence a single-child operator (`ifLet`, `ifCaseLet`) runs for every action, written
/// once:
///
/// 1. who the child is before anything runs (its identity, or `nil` when there is none);
/// 2. a child action runs the child on its state, and the child's effects run under that
///    identity's position; a child action with no child is dropped with a stale-action warning;
/// 3. the parent runs;
/// 4. if the child's identity changed (it went, or another child took its place), every effect
///    the previous child started is ended.
///
/// An operator supplies only what differs: how to find the child's state and identity, and how
/// to run the child in place. A fix to child lifetime is made here, for both.
@usableFromInline
struct _SingleChildEngine<ParentState, ParentAction, ChildState, ChildAction> {
  /// The child's identity and position, and where warnings point.
  let lifetime: _ChildLifetime<ChildState>
  /// The child's action inside a parent action, if it is one.
  let extract: (ParentAction) -> ChildAction?
  /// A child action as the parent's.
  let embed: @Sendable (ChildAction) -> ParentAction
  /// Who the child is now; `nil` when there is no child.
  let identity: (inout ParentState) -> _ChildIdentity?
  /// Runs the child reducer on the child's state, in place. Called only when `identity` found
  /// a child.
  let runChild: (inout ParentState, ChildAction) -> Effect<ChildAction>
  /// What to say when a child action comes with no child.
  let stale: (ParentState) -> _StaleAction

  /// Runs one action through the child and the parent.
  func reduce(
    _ state: inout ParentState, _ action: ParentAction,
    parent: _ReduceFunction<ParentState, ParentAction>
  ) -> Effect<ParentAction> {
    let before = identity(&state)
    var childEffect = Effect<ParentAction>.none
    if let childAction = extract(action) {
      if let before {
        let effect = runChild(&state, childAction)
        if !effect.isNone {
          childEffect = effect.map(embed)._navigation(lifetime.position(before))
        }
      } else {
        lifetime.reportStale(stale(state), action: action)
      }
    }
    let effect = childEffect.merge(with: parent(&state, action))
    guard let before else { return effect }
    return identity(&state) == before
      ? effect : effect.merge(with: lifetime.end(lifetime.position(before)))
  }
}
