import Synchronization

/// The work a reducer asks the store to do after it changed state: nothing, send another action,
/// or run asynchronous code that can send actions back.
///
/// Reducers stay pure and synchronous; everything that touches the outside world goes into an
/// effect. The store runs it, feeds the actions it sends back through the reducer, and can
/// cancel it.
///
/// ```swift
/// case .refreshTapped:
///   state.isLoading = true
///   return .run { send in
///     let schools = try await client.fetchSchools()
///     await send(.schoolsResponse(schools))
///   } catch: { error, send in
///     await send(.failed("\(error)"))
///   }
/// ```
///
/// Effects compose: ``merge(_:)-(...)`` runs several at once, ``concatenate(_:)-(...)`` one
/// after another, and ``cancellable(id:cancelInFlight:)`` makes one cancellable by id.
public struct Effect<Action> {
  @usableFromInline let operation: _Operation
  /// Whether `operation` is `.none`, known when the effect is made (where the case is usually a
  /// constant): testing the case of a stored effect copies the whole effect first, and every
  /// `Scope` asks it of its child's effect on every action.
  @usableFromInline let _isNone: Bool

  @inlinable
  init(_ operation: _Operation) {
    if case .none = operation { _isNone = true } else { _isNone = false }
    self.operation = operation
  }

  /// For the effects made on every action (`.none`, `.send`): the case is known, and testing it
  /// would copy the effect (the optimizer does not fold the test).
  @inlinable
  init(_ operation: _Operation, isNone: Bool) {
    self.operation = operation
    _isNone = isNone
  }

  @usableFromInline
  enum _Operation {
    case none
    case send(Action)
    case run(_Run<Action>)
    case merge([Effect])
    case concatenate([Effect])
    indirect case cancellable(_AnyID, cancelInFlight: Bool, Effect)
    indirect case cancel(_AnyID?)
    indirect case navigation(_AnyID, Effect)
    indirect case throttle(_Throttle, Effect)
    case prune(_NavigationPrune)
  }
}

/// The asynchronous unit of an effect: an operation and where it was written.
///
/// A class, so that the `.run` case is one word wide: an `Effect` is as wide as its widest
/// case, and every level of composition hands the effect it got from its child up to its
/// parent on every action, `.none` included. Inline, its fields would make every effect many
/// words wide, moved through memory and tested word by word at each level. Immutable, so an
/// effect that is stored and returned again shares it safely.
@usableFromInline
final class _Run<Action>: Sendable {
  /// The priority's raw value: `TaskPriority` is a resilient type, and storing one here would
  /// make every `Effect` of unknown size to the compiler, so that each copy, switch and destroy
  /// of an effect (one per action) went through the runtime.
  @usableFromInline let priorityRawValue: UInt8?
  @inlinable var priority: TaskPriority? {
    priorityRawValue.map { TaskPriority(rawValue: $0) }
  }
  @usableFromInline let operation: @Sendable (Send<Action>) async throws -> Void
  @usableFromInline let handler: (@Sendable (any Error, Send<Action>) async -> Void)?
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  /// The dependencies current when the effect was created: the operation runs inside them.
  @usableFromInline let dependencies: DependencyValues

  @usableFromInline
  init(
    priority: TaskPriority?, operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    handler: (@Sendable (any Error, Send<Action>) async -> Void)?, fileID: StaticString,
    line: UInt, dependencies: DependencyValues
  ) {
    self.priorityRawValue = priority?.rawValue
    self.operation = operation
    self.handler = handler
    self.fileID = fileID
    self.line = line
    self.dependencies = dependencies
  }

  @inlinable
  func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> _Run<NewAction> {
    let operation = self.operation
    var mappedHandler: (@Sendable (any Error, Send<NewAction>) async -> Void)?
    if let handler = self.handler {
      mappedHandler = { error, send in await handler(error, send.map(transform)) }
    }
    return _Run<NewAction>(
      priority: priority,
      operation: { send in try await operation(send.map(transform)) },
      handler: mappedHandler,
      fileID: fileID,
      line: line,
      dependencies: dependencies)
  }
}

/// What `Effect._mapped(by:)` does to the two parts of an effect that carry its action type:
/// an action sent at once, and a `.run`. The walk over the rest is written once, there.
@usableFromInline
protocol _EffectMapper {
  associatedtype Source
  associatedtype Target
  func map(_ action: Source) -> Target
  func map(_ run: _Run<Source>) -> _Run<Target>
}

/// `Effect.map`'s mapper: every action embedded by `transform`.
@usableFromInline
struct _ActionMapper<Source, Target>: _EffectMapper {
  @usableFromInline let transform: @Sendable (Source) -> Target

  @inlinable
  init(transform: @escaping @Sendable (Source) -> Target) { self.transform = transform }

  @inlinable
  func map(_ action: Source) -> Target { transform(action) }

  @inlinable
  func map(_ run: _Run<Source>) -> _Run<Target> { run.map(transform) }
}

/// An effect is `Sendable` when its actions are: its asynchronous parts always are.
extension Effect: Sendable where Action: Sendable {}
extension Effect._Operation: Sendable where Action: Sendable {}

extension Effect {
  /// An effect that does nothing.
  ///
  /// ```swift
  /// case .incrementTapped:
  ///   state.count += 1
  ///   return .none
  /// ```
  @inlinable
  public static var none: Self { Self(.none, isNone: true) }

  /// An effect that sends `action` immediately, in the same batch as the action that returned
  /// it: before any other action reaches the store and before observers are notified.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .send(.delegate(.saved(state.draft)))
  /// ```
  @inlinable
  public static func send(_ action: Action) -> Self { Self(.send(action), isNone: false) }

  /// An effect that runs `operation` on a new task; it sends actions back through `send`.
  ///
  /// The task starts on the main actor when the send that returned the effect is done; the
  /// operation, a nonisolated closure, runs on the global executor.
  ///
  /// An error thrown by `operation` goes to `handler`. With no handler, an error is reported
  /// as a runtime warning naming this call's file and line; cancellation is never an error.
  ///
  /// The operation sees the dependencies current when the effect is created (inside the
  /// reducer), whenever its task runs.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await snapshot in client.ranking() {
  ///     await send(.rankingUpdated(snapshot))
  ///   }
  /// }
  /// ```
  @inlinable
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(
      .run(
        _Run(
          priority: priority, operation: operation, handler: handler, fileID: fileID, line: line,
          dependencies: DependencyValues._current)))
  }

  /// An effect that runs `effects` at the same time.
  ///
  /// ```swift
  /// return .merge(.send(.startTimer), .run { send in await send(.load(try await api.load())) })
  /// ```
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// An effect that runs `effects` at the same time.
  @inlinable
  public static func merge<S: Sequence>(_ effects: S) -> Self where S.Element == Self {
    var parts: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case let .merge(nested): parts.append(contentsOf: nested)
      default: parts.append(effect)
      }
    }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(.merge(parts))
    }
  }

  /// This effect and `other` at the same time.
  @inlinable
  public func merge(with other: Self) -> Self {
    if other._isNone { return self }
    if _isNone { return other }
    return .merge([self, other])
  }

  /// An effect that runs `effects` one after another: each starts when the previous one has
  /// finished. Cancelling it stops the sequence.
  ///
  /// ```swift
  /// return .concatenate(.run { _ in await player.fadeOut() }, .send(.stopped))
  /// ```
  public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

  /// An effect that runs `effects` one after another.
  @inlinable
  public static func concatenate<S: Sequence>(_ effects: S) -> Self where S.Element == Self {
    var parts: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case let .concatenate(nested): parts.append(contentsOf: nested)
      default: parts.append(effect)
      }
    }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(.concatenate(parts))
    }
  }

  /// This effect, then `other` once it has finished.
  public func concatenate(with other: Self) -> Self { .concatenate([self, other]) }

  /// The same work, with every action it sends transformed: how a parent embeds a child's
  /// effects.
  ///
  /// ```swift
  /// return Child().reduce(into: &state.child, action: childAction).map(Action.child)
  /// ```
  @inlinable
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    _mapped(by: _ActionMapper(transform: transform))
  }

  /// The one walk over an effect's operations: every action it sends and every `.run` it holds
  /// rewritten by `mapper`, everything else (its shape, ids, positions, throttles) kept.
  /// Generic over the mapper rather than taking closures, so that each use (`map`, a presented
  /// child's `_mapPresented`) is specialized with its mapper and runs as the hand-written walk
  /// would: a closure per case cost a W2 send 12% more.
  @inlinable
  func _mapped<Mapper: _EffectMapper>(by mapper: Mapper) -> Effect<Mapper.Target>
  where Mapper.Source == Action {
    switch operation {
    case .none: return .none
    case let .send(action): return .send(mapper.map(action))
    case let .run(run): return Effect<Mapper.Target>(.run(mapper.map(run)))
    case let .merge(effects):
      return Effect<Mapper.Target>(.merge(effects.map { $0._mapped(by: mapper) }))
    case let .concatenate(effects):
      return Effect<Mapper.Target>(.concatenate(effects.map { $0._mapped(by: mapper) }))
    case let .cancellable(key, cancelInFlight, effect):
      return Effect<Mapper.Target>(
        .cancellable(key, cancelInFlight: cancelInFlight, effect._mapped(by: mapper)))
    case let .cancel(key): return Effect<Mapper.Target>(.cancel(key))
    case let .navigation(id, effect):
      return Effect<Mapper.Target>(.navigation(id, effect._mapped(by: mapper)))
    case let .throttle(throttle, effect):
      return Effect<Mapper.Target>(.throttle(throttle, effect._mapped(by: mapper)))
    case let .prune(prune): return Effect<Mapper.Target>(.prune(prune))
    }
  }

  /// Whether this effect does nothing.
  @inlinable
  public var isNone: Bool { _isNone }

  /// The effect `produce` returns, its actions embedded by `embed`: how a composition operator
  /// hands a child's effect to its parent. The switch consumes the child's effect, so `.none`,
  /// the common case, is never copied or destroyed (which goes through the effect type's value
  /// witnesses: a call per level of composition).
  @inlinable
  static func _embedding<ChildAction>(
    _ embed: @escaping @Sendable (ChildAction) -> Action,
    of produce: () -> Effect<ChildAction>
  ) -> Self {
    switch produce().operation {
    case .none: return .none
    case let operation: return Effect<ChildAction>(operation, isNone: false).map(embed)
    }
  }

  /// Runs this effect's children under a navigation position: their cancellation ids are
  /// namespaced by `id`, and cancelling the position cancels all of them.
  @usableFromInline
  func _navigation(_ id: _AnyID) -> Self {
    if _isNone { return self }
    return Self(.navigation(id, self))
  }
}

/// A reducer's effect type: `EffectOf<Feature>` is `Effect<Feature.Action>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

/// The handle an effect uses to send actions back into its store.
///
/// `.run` hands one to its operation. Sending hops to the main actor, where the store reduces
/// the action at once. Once the effect's task is cancelled, sending does nothing, so a cancelled
/// effect can never deliver a late response.
///
/// ```swift
/// return .run { send in
///   await send(.loadingStarted)
///   await send(.loaded(try await client.load()))
/// }
/// ```
@MainActor
public struct Send<Action>: Sendable {
  @usableFromInline let send: @MainActor @Sendable (Action) -> Void

  /// Creates a send handle from a function; useful to drive an effect's operation in isolation.
  public nonisolated init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends `action`, unless the current task has been cancelled.
  public func callAsFunction(_ action: sending Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }

  /// A handle for a child's actions that embeds them with `transform` and sends them here.
  @inlinable
  nonisolated func map<ChildAction>(
    _ transform: @escaping @Sendable (ChildAction) -> Action
  ) -> Send<ChildAction> {
    let send = self.send
    return Send<ChildAction>(send: { send(transform($0)) })
  }
}

/// Whether a `.run` effect's operation (and its error handler) has returned. Debug builds only.
final class _RunLifetime: Sendable {
  private let hasEnded = Atomic<Bool>(false)
  var isOver: Bool { hasEnded.load(ordering: .acquiring) }
  func end() { hasEnded.store(true, ordering: .releasing) }
}

extension Send {
  /// This handle, reporting every action sent after `lifetime` is over; the action is still
  /// sent, as the store would have.
  nonisolated func _reportingSendsAfterEnd(
    of lifetime: _RunLifetime, fileID: StaticString, line: UInt
  ) -> Send {
    let send = self.send
    return Send { action in
      if lifetime.isOver {
        reportRuntimeWarning(
          """
          An effect sent an action after its operation had returned: \(_describe(action))

          The '.run' at this line passed its 'send' to work that outlived it (a task, a \
          callback), so 'finish()' no longer waits for that work and cancelling the effect \
          does not reach it. Await the work inside the operation instead, so that '.run' \
          returns only when it is done sending.
          """,
          fileID: fileID, line: line)
      }
      send(action)
    }
  }
}
