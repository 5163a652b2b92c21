/// Reads a dependency inside a feature.
///
/// ```swift
/// struct Splash: Reducer {
///   @Dependency(\.continuousClock) var clock
///   @Dependency(AppVersionClient.self) var versions
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .onAppear:
///       return .run { send in
///         try await clock.sleep(for: .seconds(1.5))
///         await send(.versionChecked(try await versions.latest()))
///       }
///     // ...
///     }
///   }
/// }
/// ```
///
/// Each read returns the value current for the running task: inside a store, the values the
/// store pinned (with any `.dependency` overrides of the reducer tree); inside an effect, the
/// values current when the effect was created.
@propertyWrapper
public struct Dependency<Value: Sendable>: @unchecked Sendable {
  // `@unchecked`: `read` only applies an immutable key path or key type to its argument.
  private let read: (DependencyValues) -> Value

  /// Reads the dependency at `keyPath`, a property registered on ``DependencyValues``.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.read = { $0[keyPath: keyPath] }
  }

  /// Reads the dependency registered by the key type itself, e.g. a client that is its own key.
  ///
  /// ```swift
  /// @Dependency(AppVersionClient.self) var versions
  /// ```
  public init<Key: TestDependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.read = { $0[Key.self] }
  }

  /// The dependency's current value.
  public var wrappedValue: Value { read(DependencyValues._current) }
}
