/// A change of one field of a feature's state, sent as an action: what a form sends as the user
/// types, toggles or picks, instead of one action per field.
///
/// ```swift
/// struct Search: Reducer {
///   struct State: Equatable { var query = ""; var isLive = false }
///   enum Action: BindableAction, Equatable {
///     case binding(BindingAction<State>)
///     case searchTapped
///   }
///   var body: some ReducerOf<Self> {
///     BindingReducer()                 // writes every binding into the state
///     Reduce { state, action in
///       switch action {
///       case .binding(\.query):        // react to one field
///         return state.isLive ? .send(.searchTapped) : .none
///       case .binding, .searchTapped:
///         return .none
///       }
///     }
///   }
/// }
///
/// store.send(.binding(.set(\.query, "seoul")))   // or store.send(.set(\.query, "seoul"))
/// ```
///
/// Two binding actions are equal when they set the same field to equal values, so a
/// `TestStore` can receive and compare them; they print as `.set(\State.query, "seoul")`.
public struct BindingAction<Root>: Sendable {
  /// The field the action sets.
  public var keyPath: PartialKeyPath<Root> { field.keyPath }

  /// `@unchecked`: a key path is an immutable value; only its type lacks the conformance.
  private struct Field: @unchecked Sendable {
    let keyPath: PartialKeyPath<Root>
  }
  private let field: Field
  /// The new value, for comparing and printing.
  let value: any Sendable
  /// Writes the value into a state.
  let write: @Sendable (inout Root) -> Void
  /// Whether another binding action's value equals this one's (their fields being equal).
  let isEqualValue: @Sendable (any Sendable) -> Bool

  /// The action that sets the field at `keyPath` to `value`.
  ///
  /// ```swift
  /// await store.send(.binding(.set(\.query, "seoul"))) { $0.query = "seoul" }
  /// ```
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>, _ value: Value
  ) -> Self {
    let path = Field(keyPath: keyPath)
    return Self(
      field: path,
      value: value,
      write: { root in
        // Only this closure reads the key path back at its writable type.
        guard let writable = path.keyPath as? WritableKeyPath<Root, Value> else { return }
        root[keyPath: writable] = value
      },
      isEqualValue: { other in (other as? Value) == value }
    )
  }

  /// Writes the change into `state`: what ``BindingReducer`` does with it.
  public func apply(to state: inout Root) { write(&state) }

  /// Matches a binding action that sets the field at `keyPath`, whatever the value:
  /// `case .binding(\.query):` in a reducer's `switch`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
  }
}

extension BindingAction: Equatable {
  /// The same field, set to equal values.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqualValue(rhs.value)
  }
}

extension BindingAction: CustomDebugStringConvertible {
  /// `.set(\State.query, "seoul")`.
  public var debugDescription: String {
    ".set(\(keyPath), \(_describe(value)))"
  }
}

/// An action enum with a case that carries ``BindingAction``s of the feature's state:
/// `case binding(BindingAction<State>)` is the whole conformance (the case is the requirement).
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case saveTapped
/// }
/// ```
public protocol BindableAction: _BindableActionMetatype {
  /// The state whose fields the binding actions set.
  associatedtype State
  /// The case that carries a binding action.
  static func binding(_ action: BindingAction<State>) -> Self
}

extension BindableAction {
  /// The binding action that sets the field at `keyPath` to `value`: `.set(\.query, "seoul")`
  /// is `.binding(.set(\.query, "seoul"))`.
  ///
  /// ```swift
  /// await store.send(.set(\.query, "seoul")) { $0.query = "seoul" }
  /// ```
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>, _ value: Value
  ) -> Self {
    binding(.set(keyPath, value))
  }
}

#if compiler(>=6.2)
  /// What ``BindableAction`` refines: a metatype that crosses concurrency domains, so that
  /// ``BindingReducer`` can find the binding case from any isolation.
  public protocol _BindableActionMetatype: SendableMetatype {}
#else
  /// What ``BindableAction`` refines.
  public protocol _BindableActionMetatype {}
#endif
