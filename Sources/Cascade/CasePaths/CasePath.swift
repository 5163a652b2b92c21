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
/// Extraction from a constructor costs a case-tag read and a compare. The first time a path
/// meets a case it reads, once, which type that case holds from the enum's runtime metadata;
/// `Mirror` is never used, so enums with a custom `Mirror` match like any other, and so do
/// cases with one labeled payload (`case select(id: Int)`), several payloads, `indirect` and
/// generic cases. Only pass enum case constructors to the constructor-only initializers: for
/// anything else, such as a closure that builds a nested case, write `CasePath(embed:extract:)`
/// or compose paths with ``appending(path:)``. A function none of whose enum's cases holds its
/// value type is reported once, with the file and line of the path, the first time it is used.
public struct CasePath<Root, Value>: Sendable {
  /// The path's embed and extract: what every operator holding this path keeps.
  @usableFromInline let _route: _CaseRoute<Root, Value>

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
    self._route = _CaseRoute(embed: embed, extract: extract, constructor: .never)
  }

  /// Creates a case path from an enum case constructor alone, for a case with one payload.
  ///
  /// ```swift
  /// let child = CasePath(Action.child)
  /// ```
  ///
  /// - Precondition: `Root` is an enum and `embed` is one of its case constructors.
  ///
  /// `fileID` and `line` name the place a warning points at if the function turns out not to be
  /// a case constructor of `Root` (no case holds a `Value`).
  @inlinable
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    let constructor = _ConstructorExtraction(metadata: _enumMetadata(Root.self))
    self._route = _CaseRoute(
      embed: embed, extract: _extractor(embed, constructor, fileID: fileID, line: line),
      constructor: constructor)
  }

  /// Embeds a payload into the case.
  @inlinable
  public func embed(_ value: Value) -> Root { _route.embed(value) }

  /// Extracts the payload when `root` holds this case, or returns `nil`.
  @inlinable
  public func extract(from root: Root) -> Value? {
    _route.extract(root)
  }

  /// Whether `root` holds this case.
  @inlinable
  public func matches(_ root: Root) -> Bool { extract(from: root) != nil }

  /// A path that goes through this case, then through `path` inside its payload.
  ///
  /// ```swift
  /// let rowTapped = CasePath(Action.rows).appending(path: CasePath(Row.Action.tapped))
  /// ```
  public func appending<AppendedValue>(
    path: CasePath<Value, AppendedValue>
  ) -> CasePath<Root, AppendedValue> {
    CasePath<Root, AppendedValue>(
      embed: { self._route.embed(path._route.embed($0)) },
      extract: { self._route.extract($0).flatMap(path._route.extract) }
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
  public init<A, B>(
    _ embed: @escaping @Sendable (A, B) -> Root,
    fileID: StaticString = #fileID, line: UInt = #line
  ) where Value == (A, B) {
    self.init({ embed($0.0, $0.1) } as @Sendable (Value) -> Root, fileID: fileID, line: line)
  }

  /// Creates a case path from the constructor of a case with three payloads.
  public init<A, B, C>(
    _ embed: @escaping @Sendable (A, B, C) -> Root,
    fileID: StaticString = #fileID, line: UInt = #line
  ) where Value == (A, B, C) {
    self.init({ embed($0.0, $0.1, $0.2) } as @Sendable (Value) -> Root, fileID: fileID, line: line)
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
    self._route = _CaseRoute(
      embed: { _ in value }, extract: { metadata.tag(of: $0) == tag ? () : nil },
      constructor: .never)
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
  _ embed: @escaping @Sendable (Value) -> Root, _ constructor: _ConstructorExtraction,
  fileID: StaticString, line: UInt
) -> @Sendable (Root) -> Value? {
  let metadata = constructor.metadata
  let cache = constructor.cache
  return { root in
    if let known = constructor.extract(root, as: Value.self) { return known }
    let tag = metadata.tag(of: root)
    if cache.isRejected(tag) { return nil }
    return _firstMeeting(
      root, tag: tag, metadata: metadata, cache: cache, embed: embed, fileID: fileID, line: line)
  }
}

/// A child's route through one enum case, the split of a case path written once: how its
/// value is taken out of the parent's (`extract`) and put back (`embed`). Every child operator
/// and `Scope` holds its action's route this way, and `ifCaseLet` and a `Scope` to a case of
/// enum state hold their state's too.
///
/// For a path built from a case constructor, `constructor` knows the enum's metadata and what
/// the path has learned of its cases, so that ``extract(_:)`` runs the fast path inline, in
/// code specialized for the enum, instead of through `extractFunction` (a call, and a frame,
/// per level of composition on every action). ``_ConstructorExtraction/never`` for a path
/// written with explicit functions.
@usableFromInline
struct _CaseRoute<Root, Value>: Sendable {
  @usableFromInline let embed: @Sendable (Value) -> Root
  /// The path's own extraction: what ``extract(_:)`` calls when `constructor` cannot answer.
  @usableFromInline let extractFunction: @Sendable (Root) -> Value?
  @usableFromInline let constructor: _ConstructorExtraction

  @inlinable
  init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?, constructor: _ConstructorExtraction
  ) {
    self.embed = embed
    self.extractFunction = extract
    self.constructor = constructor
  }

  /// The payload when `root` holds this case: inline for a path built from a constructor that
  /// has met its case, else through `extractFunction`.
  @inlinable @inline(__always)
  func extract(_ root: Root) -> Value? {
    constructor.extract(root, as: Value.self) ?? extractFunction(root)
  }
}

/// The extraction of a case path built from a case constructor, once it has met its case:
/// a tag read and a compare (none for an enum of one case), then the payload, read in place
/// when the enum keeps no tag bits in it.
@usableFromInline
struct _ConstructorExtraction: Sendable {
  @usableFromInline let metadata: _EnumMetadata
  @usableFromInline let cache = _CaseTagCache()

  @usableFromInline
  init(metadata: _EnumMetadata) { self.metadata = metadata }

  /// The extraction of a path written with explicit functions: it never learns a case, so
  /// ``extract(_:as:)`` always hands over to the path's own function. Its metadata is never
  /// read.
  @usableFromInline
  static let never = _ConstructorExtraction(metadata: _EnumMetadata(Bool?.self)!)

  /// `.some(payload)` or `.some(nil)` once the path knows its case; `nil` until then (the
  /// caller then takes the slow path).
  @inlinable @inline(__always)
  func extract<Root, Value>(_ root: Root, as _: Value.Type) -> Value?? {
    let matched = cache.matched.load(ordering: .relaxed)
    guard matched >= 0 else { return nil }
    if matched & _CaseTagCache.soleCase == 0 {
      guard metadata.tag(of: root) == UInt32(truncatingIfNeeded: matched >> 3) else {
        return .some(nil)
      }
    }
    if matched & _CaseTagCache.inPlace != 0 {
      if matched & _CaseTagCache.indirect != 0 {
        return _EnumMetadata.payloadInPlaceBox(of: root, as: Value.self)
      }
      return _EnumMetadata.payloadInPlace(of: root, as: Value.self)
    }
    return metadata.payload(
      of: root, indirect: matched & _CaseTagCache.indirect != 0, as: Value.self)
  }
}

/// The slow path of an extraction, run once per case: does the constructor build this case?
///
/// The enum's metadata names the type each case holds. A case whose payload is not stored as a
/// `Value` cannot be ours; one whose payload is, is ours exactly when embedding that payload
/// gives back the same case. Neither question looks at `Mirror`, so an enum with a custom
/// mirror, or a case with one labeled payload, matches like any other.
@usableFromInline
func _firstMeeting<Root, Value>(
  _ root: Root, tag: UInt32, metadata: _EnumMetadata, cache: _CaseTagCache,
  embed: @Sendable (Value) -> Root, fileID: StaticString, line: UInt
) -> Value? {
  _CaseLookupCounter.current?.count.add(1, ordering: .relaxed)
  let cases = _EnumCases.of(metadata)
  guard Int(tag) < cases.count, cases[Int(tag)].holds(Value.self) else {
    cache.reject(tag)
    if !cases.contains(where: { $0.holds(Value.self) }) {
      _warnNeverMatches(Root.self, Value.self, fileID: fileID, line: line)
    }
    return nil
  }
  if !cases[Int(tag)].isGenericParameter, _storesFunctions(Value.self) {
    cache.reject(tag)
    _warnFunctionPayload(Root.self, Value.self, fileID: fileID, line: line)
    return nil
  }
  let isIndirect = cases[Int(tag)].isIndirect
  let payload = metadata.payload(of: root, indirect: isIndirect, as: Value.self)
  guard metadata.tag(of: embed(payload)) == tag else {
    cache.reject(tag)
    return nil
  }
  var flags: Int64 = 0
  if isIndirect {
    flags |= _CaseTagCache.indirect
    if metadata.projectionKeepsBox(of: root) { flags |= _CaseTagCache.inPlace }
  } else if metadata.projectionKeepsPayload(of: root, as: Value.self) {
    flags |= _CaseTagCache.inPlace
  }
  if cases.count == 1 { flags |= _CaseTagCache.soleCase }
  cache.matched.store(_CaseTagCache.matched(tag: tag, flags: flags), ordering: .relaxed)
  return payload
}

/// The places already told that their case path cannot work, so each is told once.
private let _toldPlaces = Guarded<Set<String>>([])

/// Warns, once per place, that a constructor-built case path was asked for a payload that holds
/// a function, which only code written for the concrete enum can extract.
func _warnFunctionPayload<Root, Value>(
  _: Root.Type, _: Value.Type, fileID: StaticString, line: UInt
) {
  let place = "\(fileID):\(line)"
  guard _toldPlaces.withLock({ $0.insert(place).inserted }) else { return }
  reportRuntimeWarning(
    """
    A case path built from a constructor cannot extract a \(Value.self) from \(Root.self): a \
    payload holding a function is stored with the function's own calling convention, and \
    copying it out in generic code would give a function that crashes when called. The \
    extraction returns nil.

    Write the path by hand, where the enum is concrete: CasePath(embed: \(Root.self).yourCase, \
    extract: { if case let .yourCase(value) = $0 { value } else { nil } }).
    """, fileID: fileID, line: line)
}

/// Warns, once per place, that a constructor-built case path meets an enum none of whose cases
/// holds its value type: it will extract nothing, and the actions it routes would vanish.
func _warnNeverMatches<Root, Value>(
  _: Root.Type, _: Value.Type, fileID: StaticString, line: UInt
) {
  let place = "\(fileID):\(line)"
  guard _toldPlaces.withLock({ $0.insert(place).inserted }) else { return }
  reportRuntimeWarning(
    """
    A case path built from a function can never match: no case of \(Root.self) holds a \
    \(Value.self), so every extraction returns nil and the actions it routes are dropped.

    Pass the enum case constructor itself (Action.child, not a closure that builds a nested \
    case), or write CasePath(embed:extract:) for anything else.
    """, fileID: fileID, line: line)
}
