/// Optional child state that is *presented*: a sheet, a pushed detail, an alert.
///
/// Like an optional, plus an identity per presentation: presenting a child with another
/// identity (another `id` when it is `Identifiable`, another case when it is an enum) starts a
/// new presentation and cancels the previous one's effects; changing the presented state, in
/// place or by writing it back, keeps it.
///
/// ```swift
/// struct Feature: Reducer {
///   struct State {
///     @PresentationState var detail: Detail.State?
///     @PresentationState var alert: AlertState<Action.Alert>?
///   }
///   enum Action {
///     case detail(PresentationAction<Detail.Action>)
///     case alert(PresentationAction<Alert>)
///     enum Alert { case confirmDeletion }
///   }
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in ... }
///       .ifLet(\.$detail, action: Action.detail) { Detail() }
///       .ifLet(\.$alert, action: Action.alert)
///   }
/// }
/// ```
///
/// The presented state is kept in a box, copied on write, so a feature can present itself:
/// `@PresentationState var child: Node.State?` inside `Node.State` compiles, as in TCA.
@propertyWrapper
public struct PresentationState<State> {
  /// `nil` while nothing is presented.
  @usableFromInline var _box: _PresentationBox<State>?

  init(_box: _PresentationBox<State>?) { self._box = _box }

  /// Presents `wrappedValue`, or nothing when it is `nil`: what the property wrapper's
  /// declaration calls.
  ///
  /// ```swift
  /// @PresentationState var detail: Detail.State? = nil
  /// ```
  @inlinable
  public init(wrappedValue: State?) {
    self._box = wrappedValue.map { _PresentationBox($0) }
  }

  /// The presented state, or `nil`. Whether an assignment starts a new presentation depends
  /// on the child's identity (its `id`, or its enum case), not on the assignment: writing
  /// back the same child keeps its presentation and its effects.
  @inlinable
  public var wrappedValue: State? {
    get { _box?.value }
    set { _box = newValue.map { _PresentationBox($0) } }
    _modify {
      guard _box != nil else {
        var value: State? = nil
        defer { _box = value.map { _PresentationBox($0) } }
        yield &value
        return
      }
      if !isKnownUniquelyReferenced(&_box!) { _box = _PresentationBox(_box!.value!) }
      yield &_box!.value
      if _box!.value == nil { _box = nil }
    }
  }

  /// Mutates the presented state in place; `nil` when nothing is presented.
  @inlinable @inline(__always)
  mutating func _modify<Result>(_ body: (inout State) -> Result) -> Result? {
    guard _box != nil else { return nil }
    if !isKnownUniquelyReferenced(&_box!) { _box = _PresentationBox(_box!.value!) }
    return body(&_box!.value!)
  }

  /// The wrapper itself, for `ifLet(\.$destination, ...)` and `store.scope(state: \.$destination, ...)`.
  @inlinable
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
    _modify { yield &self }
  }
}

/// The storage of a presented state: a reference, so that state can contain itself.
///
/// `@unchecked Sendable`: a box is never written while shared. Every write goes through
/// `PresentationState`, which first replaces the box with a copy unless it is the only
/// reference to it (copy on write, as `Array` does), so a box two values can reach is only
/// ever read.
@usableFromInline
final class _PresentationBox<State>: @unchecked Sendable {
  /// Exclusivity is guaranteed by the uniqueness check above, not checked at run time.
  @usableFromInline @exclusivity(unchecked) var value: State?
  @usableFromInline init(_ value: State) { self.value = value }
  /// A box holding nothing: a marker (see `_PresentationPath`).
  init() { self.value = nil }
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when the presented states are; the presentation identity is not compared.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}

extension PresentationState: Hashable where State: Hashable {
  /// Hashes the presented state; the presentation identity is not hashed.
  public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Codable where State: Codable {
  /// Encodes the presented state, or `nil`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }

  /// Decodes the presented state, or `nil`; a decoded state is a new presentation.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try decoder.singleValueContainer().decode(State?.self))
  }
}

extension PresentationState: _PropertyWrapperStorage {}

extension PresentationState: CustomReflectable {
  /// Reflects as the optional it wraps, so dumps and diffs show the presented state.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue as Any) }
}

/// TCA 1.x's name for ``PresentationState``, which its `@Presents` macro expands to: the same
/// property wrapper, so code written with it compiles as it is.
///
/// ```swift
/// struct State {
///   @Presents var destination: Destination.State?
/// }
/// // ...
/// .ifLet(\.$destination, action: Action.destination) { Destination() }
/// ```
public typealias Presents<State> = PresentationState<State>
