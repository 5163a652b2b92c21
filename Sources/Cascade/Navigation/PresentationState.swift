/// Optional child state that is *presented*: a sheet, a pushed detail, an alert.
///
/// Like an optional, plus an identity per presentation: assigning a new value starts a new
/// presentation (the previous one's effects are cancelled), while changing the presented state
/// in place keeps it.
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
@propertyWrapper
public struct PresentationState<State> {
  @usableFromInline var storage: State?
  /// 0 while nothing is presented; a fresh number for each presentation.
  @usableFromInline var _id: UInt64

  /// Presents `wrappedValue`, or nothing when it is `nil`: what the property wrapper's
  /// declaration calls.
  ///
  /// ```swift
  /// @PresentationState var detail: Detail.State? = nil
  /// ```
  public init(wrappedValue: State?) {
    self.storage = wrappedValue
    self._id = wrappedValue == nil ? 0 : _nextStructureStamp()
  }

  /// The presented state, or `nil`. Assigning starts a new presentation; mutating in place
  /// does not.
  public var wrappedValue: State? {
    get { storage }
    set {
      storage = newValue
      _id = newValue == nil ? 0 : _nextStructureStamp()
    }
    _modify {
      let wasPresented = storage != nil
      yield &storage
      if storage == nil {
        _id = 0
      } else if !wasPresented {
        _id = _nextStructureStamp()
      }
    }
  }

  /// The wrapper itself, for `ifLet(\.$destination, ...)` and `store.scope(state: \.$destination, ...)`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
    _modify { yield &self }
  }
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when the presented states are; the presentation identity is not compared.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage == rhs.storage }
}

extension PresentationState: Hashable where State: Hashable {
  /// Hashes the presented state; the presentation identity is not hashed.
  public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Codable where State: Codable {
  /// Encodes the presented state, or `nil`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(storage)
  }

  /// Decodes the presented state, or `nil`; a decoded state is a new presentation.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try decoder.singleValueContainer().decode(State?.self))
  }
}

extension PresentationState: CustomReflectable {
  /// Reflects as the optional it wraps, so dumps and diffs show the presented state.
  public var customMirror: Mirror { Mirror(reflecting: storage as Any) }
}
