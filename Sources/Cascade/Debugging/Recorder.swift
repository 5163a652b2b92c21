@_spi(Reflection) import Swift

/// Records the actions a reducer handles, optionally with the state after each, so a session
/// can be inspected, saved and replayed.
///
/// Record every action, including those effects sent back: their results (network responses,
/// clock ticks) are in those actions, so replaying them through the reducer alone reproduces
/// the session's final state exactly, with no effect running.
///
/// ```swift
/// let recorder = Recorder<App.State, App.Action>()
/// let store = Store(initialState: App.State()) { App().record(into: recorder) }
/// // ... the session runs ...
/// let replayed = recorder.recording.replay(from: App.State()) { App() }
/// assert(replayed == store.state)
/// ```
///
/// To see the session in the inspector, make the recorder `inspectable` and write its recording
/// to a file (one line), then open it with `swift run cascade-inspect session.json`:
///
/// ```swift
/// let recorder = Recorder<App.State, App.Action>(inspectable: true)
/// // ... the session runs ...
/// try recorder.recording.write(to: URL(fileURLWithPath: "session.json"))
/// ```
///
/// An inspectable recorder takes the state's text (``stateDump(_:maxElements:)``, built on
/// `Mirror`) after every action, and keeps only the lines that changed: meant for debugging
/// sessions and tests, not for a shipping app's every action. Record at the root reducer: the
/// first action of each send-loop batch is then known exactly to be the user's or an effect's.
///
/// A recorder is `Sendable` when its state and action types are: the compiler checks it (its
/// only mutable storage is behind a lock), so a recorder of a non-`Sendable` state cannot be
/// handed to another task by mistake.
public final class Recorder<State, Action> {
  fileprivate struct Storage {
    var entries: [Recording<State, Action>.Entry] = []
    var session: SessionBuilder?
    /// The state's dump between actions; taken out while an action's dump is made.
    var dump: _IncrementalDump? = _IncrementalDump()
    /// The steps whose action text is still to be written, with their entry: the text is
    /// made when the recording is read, not while the app runs.
    var untitled: [(step: Int, entry: Int)] = []
  }
  private let lock: Guarded<Storage>
  private let keepsStates: Bool
  private let isInspectable: Bool
  /// The state's fields whose elements the dump compares one by one, by offset and type.
  private let loggedFields: [_LoggedField]

  /// A recorder.
  ///
  /// ```swift
  /// let recorder = Recorder<App.State, App.Action>(inspectable: true)
  /// ```
  ///
  /// - Parameters:
  ///   - keepingStates: Each entry also keeps the state after its action.
  ///   - inspectable: The recording also holds a ``RecordedSession``: every action's origin
  ///     and case path, and the state's text after each (what the inspector shows).
  public init(keepingStates: Bool = false, inspectable: Bool = false) {
    self.keepsStates = keepingStates
    self.isInspectable = inspectable
    var storage = Storage()
    if inspectable {
      storage.session = SessionBuilder(
        stateType: typeDescription(State.self), actionType: typeDescription(Action.self))
      storage.dump = _IncrementalDump(trustingStampsAfter: _nextStructureStamp())
    }
    self.lock = Guarded(storage)
    self.loggedFields = inspectable ? _elementLoggingFields(of: State.self) : []
  }

  /// Before each action of an inspectable recorder: the identified collections among the
  /// state's fields log their elements' in-place changes, so that the dump compares only the
  /// elements an action changed (see `_IncrementalDump`). Only this state's collections do:
  /// any other collection in the process logs nothing.
  func startLogging(_ state: inout State) {
    guard !loggedFields.isEmpty else { return }
    withUnsafeMutableBytes(of: &state) { bytes in
      guard let base = bytes.baseAddress else { return }
      for field in loggedFields { field.type._startLoggingElementChanges(at: base + field.offset) }
    }
  }

  /// How many actions were recorded so far: cheap, unlike ``recording``, which makes the
  /// actions' text for an inspectable recorder.
  ///
  /// ```swift
  /// if recorder.actionCount > 1_000 { print("writing \(recorder.actionCount) actions...") }
  /// try recorder.recording.write(to: file)
  /// ```
  public var actionCount: Int { lock.withLock { $0.entries.count } }

  /// What was recorded so far.
  public var recording: Recording<State, Action> {
    let (entries, session, untitled) = lock.withLock {
      ($0.entries, $0.session?.session, $0.untitled)
    }
    guard var session, !untitled.isEmpty else {
      return Recording(entries: entries, session: session)
    }
    // The actions' text, made outside the lock (`Mirror` may run the action's own code), and
    // kept so that the next read does not make it again.
    let texts = untitled.map { ActionText(entries[$0.entry].action) }
    for (index, pending) in untitled.enumerated() { session.title(pending.step, texts[index]) }
    lock.withLock { storage in
      for (index, pending) in untitled.enumerated() {
        storage.session?.title(step: pending.step, texts[index])
      }
      storage.untitled.removeFirst(untitled.count)
    }
    return Recording(entries: entries, session: session)
  }

  /// Called before each action: an inspectable recorder takes the first state's text.
  func willReduce(_ state: State) {
    guard isInspectable, lock.withLock({ $0.session?.hasInitialState == false }) else { return }
    let (lines, shared) =
      switch dumpStep(state) {
      case let .whole(lines, shared)?: (lines, shared)
      default: wholeDump(state)
      }
    lock.withLock { $0.session?.setInitialState(lines, shared: shared) }
  }

  func append(_ action: Action, state: State) {
    let entry = Recording<State, Action>.Entry(action: action, state: keepsStates ? state : nil)
    guard isInspectable else {
      lock.withLock { $0.entries.append(entry) }
      return
    }
    let (batch, startedByUser) = (_BatchOrigin.serial, _BatchOrigin.startedByUser)
    // The dumps run outside the lock: `Mirror` may call the state's own code.
    let text = ActionText.untitled
    let step = dumpStep(state)
    let whole = step == nil ? wholeDump(state) : nil
    lock.withLock {
      $0.entries.append(entry)
      guard let origin = $0.session?.origin(batch: batch, startedByUser: startedByUser),
        let stepIndex = $0.session?.session.steps.count
      else {
        return
      }
      $0.untitled.append((step: stepIndex, entry: $0.entries.count - 1))
      switch step {
      case let .changes(changes, shared, fields)?:
        $0.session?.append(
          action: text, origin: origin, changes: changes, shared: shared, fields: fields)
      case let .whole(lines, shared)?:
        $0.session?.append(action: text, origin: origin, lines: lines, shared: shared)
      case nil:
        if let whole {
          $0.session?.append(action: text, origin: origin, lines: whole.0, shared: whole.1)
        }
      }
    }
  }
}

extension Recorder {
  /// What the action changed in the state's dump, made piece by piece from the last one (see
  /// `_IncrementalDump`); `nil` when the state must be dumped whole. Made outside the lock:
  /// `Mirror` may run the state's own code.
  private func dumpStep(_ state: State) -> _IncrementalDump.Step? {
    guard
      var dump = lock.withLock({ storage in
        defer { storage.dump = nil }
        return storage.dump
      })
    else { return nil }
    let step = dump.step(of: state)
    lock.withLock { $0.dump = dump }
    return step
  }

  private func wholeDump(_ state: State) -> ([String], [SharedBlock]) {
    var shared: [SharedBlock] = []
    let lines = stateDumpLines(state, maxElements: nil, shared: &shared)
    return (lines, shared)
  }
}

extension Recorder: Sendable where State: Sendable, Action: Sendable {}
extension Recorder.Storage: Sendable where State: Sendable, Action: Sendable {}

/// Recorded actions, in order, with the state after each when the recorder kept them.
public struct Recording<State, Action> {
  /// One reduced action.
  public struct Entry {
    /// The action that was reduced.
    public let action: Action
    /// The state after the action, or `nil` when the recorder did not keep states (or the
    /// recording was decoded).
    public let state: State?
  }

  /// The entries, in order.
  public var entries: [Entry]

  /// What the inspector shows of the session, when the recorder was made `inspectable` (or
  /// the decoded file had it): each action's origin and case path, and the states as text.
  public var session: RecordedSession?

  init(entries: [Entry], session: RecordedSession? = nil) {
    self.entries = entries
    self.session = session
  }

  /// The actions, in order.
  public var actions: [Action] { entries.map(\.action) }

  /// Replays the actions from `initialState` through the reducer, without running effects:
  /// the state the session ended in. Reducers that read dependencies directly (a date, an id
  /// generator) need the same values: set them with `withDependencies`.
  public func replay<R: Reducer>(
    from initialState: State,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    @ReducerBuilder<State, Action> reducer: () -> R
  ) -> State where R.State == State, R.Action == Action {
    var values = DependencyValues._current
    prepare(&values)
    return DependencyValues._withValue(values) {
      let reduce = reducer()._reduceFunction()
      var state = initialState
      for entry in entries { _ = reduce(&state, entry.action) }
      return state
    }
  }
}

extension Recording: Sendable where State: Sendable, Action: Sendable {}
extension Recording.Entry: Sendable where State: Sendable, Action: Sendable {}

extension Recording: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey { case actions, session }

  /// Encodes the actions and the ``session`` when there is one (states themselves are not
  /// saved, only their text in the session).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(actions, forKey: .actions)
    try container.encodeIfPresent(session, forKey: .session)
  }

  /// Decodes the actions, and the session when the file has one; the entries have no states.
  /// A file written before sessions existed (only `actions`) still decodes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let actions = try container.decode([Action].self, forKey: .actions)
    self.entries = actions.map { Entry(action: $0, state: nil) }
    self.session = try container.decodeIfPresent(RecordedSession.self, forKey: .session)
  }
}

extension Reducer {
  /// Records every action this reducer handles into `recorder`.
  ///
  /// ```swift
  /// Store(initialState: App.State()) { App().record(into: recorder) }
  /// ```
  ///
  /// - Parameter recorder: Where the actions go; `nil` records nothing, so a command line can
  ///   record only when asked to.
  public func record(into recorder: Recorder<State, Action>?) -> _InterceptReducer<Self> {
    guard let recorder else { return intercept() }
    return _InterceptReducer(base: self) { state, action, reduce in
      recorder.startLogging(&state)
      recorder.willReduce(state)
      let effect = reduce(&state)
      recorder.append(action, state: state)
      return effect
    }
  }
}

/// A field of a state, by offset, whose type is an identified collection the dump compares
/// element by element.
struct _LoggedField: @unchecked Sendable {
  // `@unchecked`: a metatype and an offset, neither of which is ever mutated.
  let offset: Int
  let type: any _ElementChangeLogging.Type
}

/// The stored properties of `type`, when it is a struct, that are identified collections of
/// equatable elements (what `_IncrementalDump` compares element by element). Found once per
/// recorder by the runtime's field list (no `Mirror`, no value read).
private func _elementLoggingFields(of type: Any.Type) -> [_LoggedField] {
  // The metadata's kind (the runtime's ABI): 0x200 is a struct.
  guard unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self) == 0x200 else {
    return []
  }
  var fields: [_LoggedField] = []
  _ = _forEachField(of: type, options: []) { _, offset, fieldType, _ in
    if fieldType is any _ElementwiseDumpable.Type,
      let logging = fieldType as? any _ElementChangeLogging.Type
    {
      fields.append(_LoggedField(offset: offset, type: logging))
    }
    return true
  }
  return fields
}
