/// An enum whose cases can be read, tested and changed in place through their case
/// constructors: declare the conformance (it has no requirements) where TCA has `@CasePathable`.
///
/// ```swift
/// enum Destination: CasePathable {   // @CasePathable @Reducer enum Destination in TCA
///   case edit(SyncUpForm.State)
///   case alert(AlertState<Alert>)
/// }
///
/// // In a test store's assertion: change a field of the case the state is in.
/// await store.send(.editButtonTapped) {
///   $0.destination = .edit(SyncUpForm.State(syncUp: syncUp))
/// }
/// await store.send(.destination(.presented(.edit(.titleChanged("Engineering"))))) {
///   $0.destination?.modify(Destination.edit) { $0.syncUp.title = "Engineering" }
/// }
/// ```
///
/// TCA names a case by a key path (`\.edit`), which its macro generates; Cascade names it by
/// its case constructor (`Destination.edit`), which every enum already has.
public protocol CasePathable {}

extension CasePathable {
  /// Changes the payload of the case `embed` makes, in place.
  ///
  /// When the value is in another case, nothing changes and an issue is reported at the call
  /// (in a test, a failure): an assertion that modifies the wrong screen is a mistake, not a
  /// no-op to skip quietly.
  ///
  /// ```swift
  /// $0.destination?.modify(Destination.edit) { $0.syncUp.title = "Engineering" }
  /// ```
  public mutating func modify<Value>(
    _ embed: @escaping @Sendable (Value) -> Self,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ body: (inout Value) throws -> Void
  ) rethrows {
    let path = CasePath(embed, fileID: fileID, line: line)
    guard var payload = path.extract(from: self) else {
      reportIssue(
        """
        modify could not change the case holding a \(Value.self) (\(Self.self)): the value is \
        \(_caseName(self)). Assert the case the state is in (assign the whole value), or \
        modify through that case's constructor.
        """,
        fileID: fileID, line: line)
      return
    }
    try body(&payload)
    self = path.embed(payload)
  }

  /// Whether the value is in the case `embed` makes.
  ///
  /// ```swift
  /// #expect(store.state.destination?.is(Destination.alert) == true)
  /// ```
  public func `is`<Value>(
    _ embed: @escaping @Sendable (Value) -> Self,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    CasePath(embed, fileID: fileID, line: line).matches(self)
  }

  /// The payload of the case `embed` makes, or `nil` in another case. Setting a payload puts
  /// the value in that case; setting `nil` changes nothing.
  ///
  /// ```swift
  /// let form = state.destination?[case: Destination.edit]   // SyncUpForm.State?
  /// ```
  public subscript<Value>(case embed: @escaping @Sendable (Value) -> Self) -> Value? {
    get { CasePath(embed).extract(from: self) }
    set { if let newValue { self = embed(newValue) } }
  }
}
