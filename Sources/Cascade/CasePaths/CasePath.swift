import Synchronization

/// A path from an enum to the payload of one of its cases: embed a value into the case, or
/// extract it back when the enum holds that case.
///
/// Case paths are to enums what key paths are to structs. Reducers use them to route a parent
/// action to a child (`Scope`, `ifLet`, `forEach`), and tests use them to match received actions
/// whose payload is not `Equatable`.
///
/// You rarely build one by hand: every operator that takes a case path also takes the enum case
/// constructor itself, and Cascade derives the extraction from the enum's runtime metadata.
///
/// ```swift
/// enum Action {
///   case child(Child.Action)
///   case element(id: Int, action: Row.Action)
///   case dismiss
/// }
///
/// let child = CasePath(Action.child)          // CasePath<Action, Child.Action>
/// child.extract(from: .child(.tapped))        // .tapped
/// child.extract(from: .dismiss)               // nil
///
/// let element = CasePath(Action.element)      // CasePath<Action, (Int, Row.Action)>
/// let dismiss = CasePath(Action.dismiss)      // CasePath<Action, Void>
/// ```
///
/// Extraction from a constructor costs a case-tag read and a compare (`Mirror` runs once per
/// case, the first time that case is seen, never per action). Only pass enum case constructors
/// to the constructor-only initializers: for anything else, such as a closure that builds a
/// nested case, write `CasePath(embed:extract:)` or compose paths with ``appending(path:)``.
public struct CasePath<Root, Value>: Sendable {
  @usableFromInline let _embed: @Sendable (Value) -> Root
  @usableFromInline let _extract: @Sendable (Root) -> Value?

  /// Creates a case path from explicit embed and extract functions.
  ///
  /// ```swift
  /// let increment = CasePath<Action, Int>(
  ///   embed: { .counter(.incrementBy($0)) },
  ///   extract: { if case let .counter(.incrementBy(n)) = $0 { n } else { nil } }
  /// )
  /// ```
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self._embed = embed
    self._extract = extract
  }

  /// Creates a case path from an enum case constructor alone, for a case with one payload.
  ///
  /// ```swift
  /// let child = CasePath(Action.child)
  /// ```
  ///
  /// - Precondition: `Root` is an enum and `embed` is one of its case constructors.
  @inlinable
  public init(_ embed: @escaping @Sendable (Value) -> Root) {
    self._embed = embed
    self._extract = _extractor(embed)
  }

  /// Embeds a payload into the case.
  @inlinable
  public func embed(_ value: Value) -> Root { _embed(value) }

  /// Extracts the payload when `root` holds this case, or returns `nil`.
  @inlinable
  public func extract(from root: Root) -> Value? { _extract(root) }

  /// Whether `root` holds this case.
  @inlinable
  public func matches(_ root: Root) -> Bool { _extract(root) != nil }

  /// A path that goes through this case, then through `path` inside its payload.
  ///
  /// ```swift
  /// let rowTapped = CasePath(Action.rows).appending(path: CasePath(Row.Action.tapped))
  /// ```
  public func appending<AppendedValue>(
    path: CasePath<Value, AppendedValue>
  ) -> CasePath<Root, AppendedValue> {
    CasePath<Root, AppendedValue>(
      embed: { self._embed(path._embed($0)) },
      extract: { self._extract($0).flatMap(path._extract) }
    )
  }
}

extension CasePath {
  /// Creates a case path from the constructor of a case with two payloads; the value is the
  /// pair of payloads.
  ///
  /// ```swift
  /// let element = CasePath(Action.element)   // CasePath<Action, (Int, Row.Action)>
  /// ```
  public init<A, B>(_ embed: @escaping @Sendable (A, B) -> Root) where Value == (A, B) {
    self.init({ embed($0.0, $0.1) } as @Sendable (Value) -> Root)
  }

  /// Creates a case path from the constructor of a case with three payloads.
  public init<A, B, C>(_ embed: @escaping @Sendable (A, B, C) -> Root) where Value == (A, B, C) {
    self.init({ embed($0.0, $0.1, $0.2) } as @Sendable (Value) -> Root)
  }
}

extension CasePath where Value == Void, Root: Sendable {
  /// Creates a case path to a case without a payload.
  ///
  /// ```swift
  /// let dismiss = CasePath(Action.dismiss)
  /// dismiss.matches(.dismiss)   // true
  /// ```
  ///
  /// - Precondition: `Root` is an enum.
  @_disfavoredOverload  // a case constructor is a `Sendable` value too: prefer the others
  public init(_ value: Root) {
    let metadata = _enumMetadata(Root.self)
    let tag = metadata.tag(of: value)
    self._embed = { _ in value }
    self._extract = { metadata.tag(of: $0) == tag ? () : nil }
  }
}

extension CasePath where Root == Value {
  /// The identity path: embed and extract return their argument.
  public static var `self`: CasePath<Root, Root> {
    CasePath(embed: { $0 }, extract: { $0 })
  }
}

/// Pattern matching: `case CasePath(Action.dismiss):` in a `switch`.
public func ~= <Root, Value>(pattern: CasePath<Root, Value>, value: Root) -> Bool {
  pattern.matches(value)
}

@usableFromInline
func _enumMetadata<Root>(_ type: Root.Type) -> _EnumMetadata {
  guard let metadata = _EnumMetadata(Root.self) else {
    fatalError(
      """
      CasePath: \(Root.self) is not an enum. A case path built from a constructor needs an \
      enum root; for anything else write CasePath(embed:extract:).
      """)
  }
  return metadata
}

/// Builds the extraction function for an enum case constructor. Inlinable, so that the
/// function is specialized for the enum in the module that builds the case path: unspecialized,
/// every extraction would look up the generic metadata it touches.
@inlinable
func _extractor<Root, Value>(
  _ embed: @escaping @Sendable (Value) -> Root
) -> @Sendable (Root) -> Value? {
  let metadata = _enumMetadata(Root.self)
  let cache = _CaseTagCache()
  return { root in
    let tag = metadata.tag(of: root)
    let matched = cache.matched.load(ordering: .relaxed)
    if matched >= 0 {
      guard tag == UInt32(truncatingIfNeeded: matched >> 1) else { return nil }
      return metadata.payload(of: root, indirect: matched & 1 == 1, as: Value.self)
    }
    if cache.isRejected(tag) { return nil }
    return _firstMeeting(root, tag: tag, metadata: metadata, cache: cache, embed: embed)
  }
}

/// The slow path of an extraction, run once per case: does the constructor build this case?
@usableFromInline
func _firstMeeting<Root, Value>(
  _ root: Root, tag: UInt32, metadata: _EnumMetadata, cache: _CaseTagCache,
  embed: @Sendable (Value) -> Root
) -> Value? {
  _reflectionCount.add(1, ordering: .relaxed)
  // First meeting with this case: does the constructor build it? Mirror runs here only, once
  // per case. A case whose payload is not a `Value` cannot be ours; one whose payload is, is
  // ours exactly when embedding that payload gives back the same case.
  guard
    let payload = Mirror(reflecting: root).children.first?.value as? Value,
    metadata.tag(of: embed(payload)) == tag
  else {
    cache.reject(tag)
    return nil
  }
  let indirect: Int64 = metadata.isIndirect(tag: tag) ? 1 : 0
  cache.matched.store(Int64(tag) << 1 | indirect, ordering: .relaxed)
  return payload
}
