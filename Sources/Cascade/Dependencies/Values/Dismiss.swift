extension DependencyValues {
  /// Dismisses the feature that reads it: pops it off its stack or dismisses its presentation,
  /// through an action its parent sees. Navigation reducers set it for their children; where
  /// nothing presented the feature, calling it reports a warning and does nothing.
  ///
  /// ```swift
  /// @Dependency(\.dismiss) var dismiss
  /// // ...
  /// case .closeButtonTapped:
  ///   return .run { _ in await dismiss() }
  /// ```
  public var dismiss: DismissEffect {
    get { self[DismissEffect.self] }
    set { self[DismissEffect.self] = newValue }
  }

  /// Whether the feature reading it was presented (pushed or shown) by a navigation reducer.
  public var isPresented: Bool {
    get { self[IsPresentedKey.self] }
    set { self[IsPresentedKey.self] = newValue }
  }
}

/// The action of dismissing the current feature; see ``DependencyValues/dismiss``.
public struct DismissEffect: Sendable {
  private let dismiss: (@Sendable (_ fileID: StaticString, _ line: UInt) async -> Void)?

  /// A dismiss effect that runs `dismiss`, for previews and tests of a feature on its own.
  public init(_ dismiss: @escaping @Sendable () async -> Void) {
    self.dismiss = { _, _ in await dismiss() }
  }

  private init(located dismiss: @escaping @Sendable (StaticString, UInt) async -> Void) {
    self.dismiss = dismiss
  }

  private init() { self.dismiss = nil }

  /// Dismisses the navigation position the calling effect runs under: what navigation
  /// reducers give their children.
  static let navigation = DismissEffect(located: { fileID, line in
    guard !Task.isCancelled else { return }
    guard let dismiss = _DismissHook.current else {
      reportRuntimeWarning(
        """
        'dismiss()' was called from an effect that no longer runs under a presented feature, \
        so there is nothing to dismiss.

        Call it from an effect the presented feature started ('.run'), while it is presented.
        """,
        fileID: fileID, line: line)
      return
    }
    await dismiss.run()
  })

  /// Dismisses the feature, or reports a warning naming the call site when nothing presented
  /// it.
  public func callAsFunction(fileID: StaticString = #fileID, line: UInt = #line) async {
    guard let dismiss else {
      reportRuntimeWarning(
        """
        'dismiss()' was called, but this feature was not presented by a navigation reducer, so \
        there is nothing to dismiss.

        Dismissal works for features run by a stack ('forEach' over a StackState) or a \
        presentation ('ifLet' over a PresentationState). Check 'isPresented' first if the \
        feature can also run on its own.
        """,
        fileID: fileID, line: line)
      return
    }
    await dismiss(fileID, line)
  }
}

extension DismissEffect: DependencyKey {
  /// Dismisses nothing: calling it reports a warning. Navigation reducers give the features they
  /// present one that dismisses them.
  public static let liveValue = DismissEffect()
  /// Dismisses nothing, as the live value: a test of a presented feature gets a working one from
  /// its parent's navigation reducer, or sets one with ``init(_:)``.
  public static let testValue = DismissEffect()
}

enum IsPresentedKey: DependencyKey {
  static let liveValue = false
  static let testValue = false
}
