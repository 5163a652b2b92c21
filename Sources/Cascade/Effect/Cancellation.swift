extension Effect {
  /// This effect, made cancellable by `id`.
  ///
  /// Ids are namespaced per root store and per navigation position: two stores never cancel
  /// each other's effects, and a child on a stack cannot cancel its parent's. A parent can
  /// cancel its children's effects by the same id.
  ///
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case let .searchTextChanged(text):
  ///   state.text = text
  ///   return .run { send in await send(.results(try await api.search(text))) }
  ///     .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// - Parameters:
  ///   - id: Any hashable value; an enum case per effect reads best.
  ///   - cancelInFlight: Cancel the effects already running with this id before starting this
  ///     one.
  public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Self {
    if _isNone { return self }
    return Self(.cancellable(_AnyID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every running effect made cancellable with `id`, in this store and
  /// below this feature's navigation position.
  ///
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  public static func cancel<ID: Hashable & Sendable>(id: ID) -> Self {
    Self(.cancel(_AnyID(id)))
  }
}

/// Where an effect's task stands among the store's effects: the navigation positions it runs
/// under, outermost first, the cancellation ids it was given, and the throttle its actions go
/// through, if any.
@usableFromInline
struct _EffectContext: Sendable {
  var path: [_AnyID] = []
  var ids: [_AnyID] = []
  var throttle: _Throttle?

  @usableFromInline static let root = _EffectContext()
}
