// TCA 1.x names an action case with a case key path, `action: \.editor`, which its
// `@CasePathable` macro makes possible. Cascade has no macros: `action:` takes the case itself,
// `action: Action.editor`. Written out of habit, `\.editor` used to give a wall of errors about
// key paths and closures, none naming the fix. These overloads catch the habit: the key path
// resolves against `_CaseKeyPathHabit`, which accepts any name, so the call lands on an
// unavailable overload whose one message, at the user's line, says what to write.

/// What a TCA 1.x case key path given for `action:` (`\.editor`) resolves to: any name is a
/// member, so the key path always type-checks and the unavailable overload that took it
/// reports what to write instead. Never made, never used at run time.
@dynamicMemberLookup
public struct _CaseKeyPathHabit {
  /// Any name: `\.editor`, `\.path`.
  public subscript(dynamicMember name: String) -> _CaseKeyPathHabit {
    fatalError("Cascade: a case key path habit is never evaluated.")
  }
}

/// A case key path written for `action:` where Cascade takes the case itself.
public typealias _ActionCaseKeyPath = KeyPath<_CaseKeyPathHabit, _CaseKeyPathHabit>

extension Scope {
  /// TCA 1.x's `Scope(state: \.editor, action: \.editor)`: an error that says to write the
  /// case, as in
  ///
  /// ```swift
  /// Scope(state: \.editor, action: Action.editor) { Editor() }
  /// ```
  @available(
    *, unavailable,
    message:
      "Cascade takes the action's case itself, not a case key path: write 'action: Action.editor' for 'action: \\.editor'"
  )
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: _ActionCaseKeyPath,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    fatalError("unavailable")
  }
}

extension Reducer {
  /// TCA 1.x's `.ifLet(\.$destination, action: \.destination)`: an error that says to write
  /// the case, and the destination's reducer, as in
  ///
  /// ```swift
  /// .ifLet(\.$destination, action: Action.destination) { Destination() }
  /// ```
  @available(
    *, unavailable,
    message:
      "Cascade takes the action's case itself, not a case key path: write 'action: Action.destination' for 'action: \\.destination', and the destination's reducer in a trailing closure"
  )
  public func ifLet<DestinationState>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: _ActionCaseKeyPath
  ) -> Self {
    fatalError("unavailable")
  }

  /// TCA 1.x's `.ifLet(\.$destination, action: \.destination) { … }`: an error that says to
  /// write the case, as in
  ///
  /// ```swift
  /// .ifLet(\.$destination, action: Action.destination) { Destination() }
  /// ```
  @available(
    *, unavailable,
    message:
      "Cascade takes the action's case itself, not a case key path: write 'action: Action.destination' for 'action: \\.destination'"
  )
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: _ActionCaseKeyPath,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> Self where DestinationState == Destination.State, DestinationAction == Destination.Action {
    fatalError("unavailable")
  }

  /// TCA 1.x's `.ifLet(\.child, action: \.child) { … }`: an error that says to write the
  /// case, as in
  ///
  /// ```swift
  /// .ifLet(\.child, action: Action.child) { Child() }
  /// ```
  @available(
    *, unavailable,
    message:
      "Cascade takes the action's case itself, not a case key path: write 'action: Action.child' for 'action: \\.child'"
  )
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: _ActionCaseKeyPath,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped
  ) -> Self where WrappedState == Wrapped.State, WrappedAction == Wrapped.Action {
    fatalError("unavailable")
  }

  /// TCA 1.x's `.forEach(\.path, action: \.path)`: an error that says to write the case, and
  /// the screens' reducer, as in
  ///
  /// ```swift
  /// .forEach(\.path, action: Action.path) { Path() }
  /// ```
  @available(
    *, unavailable,
    message:
      "Cascade takes the action's case itself, not a case key path: write 'action: Action.path' for 'action: \\.path', and the screens' reducer in a trailing closure"
  )
  public func forEach<DestinationState>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: _ActionCaseKeyPath
  ) -> Self {
    fatalError("unavailable")
  }

  /// TCA 1.x's `.forEach(\.path, action: \.path) { … }`: an error that says to write the
  /// case, as in
  ///
  /// ```swift
  /// .forEach(\.path, action: Action.path) { Path() }
  /// ```
  @available(
    *, unavailable,
    message:
      "Cascade takes the action's case itself, not a case key path: write 'action: Action.path' for 'action: \\.path'"
  )
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: _ActionCaseKeyPath,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> Self where DestinationState == Destination.State, DestinationAction == Destination.Action {
    fatalError("unavailable")
  }

  /// TCA 1.x's `.forEach(\.rows, action: \.rows) { … }`: an error that says to write the
  /// case, as in
  ///
  /// ```swift
  /// .forEach(\.rows, action: Action.rows) { Row() }
  /// ```
  @available(
    *, unavailable,
    message:
      "Cascade takes the action's case itself, not a case key path: write 'action: Action.rows' for 'action: \\.rows'"
  )
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: _ActionCaseKeyPath,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> Self where ElementState == Element.State, ElementAction == Element.Action {
    fatalError("unavailable")
  }
}
