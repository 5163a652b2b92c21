import Foundation

/// A recorded session as the inspector shows it: every action with where it came from, and the
/// state before and after each, as text. It needs none of the app's types, so a tool can read
/// it from any app's recording.
///
/// A ``Recorder`` made with `inspectable: true` builds one as the session runs (the state's
/// text is taken after every action, so shared values show the value they had then). Write it
/// with ``Recording/write(to:)``, open it with `cascade-inspect`, or make the page directly:
///
/// ```swift
/// let recorder = Recorder<App.State, App.Action>(inspectable: true)
/// let store = Store(initialState: App.State()) { App().record(into: recorder) }
/// // ... the session runs ...
/// try recorder.recording.write(to: URL(fileURLWithPath: "session.json"))
/// // then: swift run cascade-inspect session.json   (writes session.html)
/// ```
///
/// States are kept compactly: the initial state's lines (from ``stateDump(_:maxElements:)``),
/// then for each step only the lines it changed (``Hunk``s). ``state(after:)`` rebuilds any
/// step's state.
public struct RecordedSession: Codable, Sendable, Equatable {
  /// The recorded state's type, without modules: `MainFeature.State`.
  public var stateType: String
  /// The recorded action's type, without modules: `MainFeature.Action`.
  public var actionType: String
  /// The lines of the state before the first action.
  public var initialState: [String]
  /// One step per reduced action, in order.
  public var steps: [Step]

  /// A session with no steps yet.
  ///
  /// ```swift
  /// let empty = RecordedSession(stateType: "App.State", actionType: "App.Action",
  ///   initialState: ["App.State()"], steps: [])
  /// ```
  ///
  /// - Parameters:
  ///   - stateType: The state's type name.
  ///   - actionType: The action's type name.
  ///   - initialState: The lines of the state before the first step.
  ///   - steps: The steps, in order.
  public init(stateType: String, actionType: String, initialState: [String], steps: [Step]) {
    self.stateType = stateType
    self.actionType = actionType
    self.initialState = initialState
    self.steps = steps
  }

  /// One reduced action and what it changed.
  public struct Step: Codable, Sendable, Equatable {
    /// The action on one line, as ``compactDump(_:maxElements:)`` prints it.
    public var action: String
    /// The action's cases from the root, without payloads: `path.element.game.touchTapped`.
    public var casePath: String
    /// Who sent it.
    public var origin: ActionOrigin
    /// The screen (child feature) it was for, from its case path: `path › game`; `root` for
    /// the root feature's own actions.
    public var screen: String
    /// How the state's lines changed, in order; empty when the action changed nothing.
    public var changes: [Hunk]
    /// The paths of the fields it changed (at most a few): `path[#1].myTouches`.
    public var fields: [String]
    /// The paths of the shared values (``Shared``) whose value changed at this step, one per
    /// holder. A change an effect makes to a shared value outside any reducer shows at the
    /// next step recorded (usually the action the effect sends next).
    public var shared: [String]

    /// A step.
    ///
    /// ```swift
    /// let step = RecordedSession.Step(action: ".incrementTapped", casePath: "incrementTapped",
    ///   origin: .user, screen: "root",
    ///   changes: [.init(start: 1, removed: 1, inserted: ["  count: 1"])],
    ///   fields: ["count"], shared: [])
    /// ```
    ///
    /// - Parameters:
    ///   - action: The action's one-line text.
    ///   - casePath: The action's case path.
    ///   - origin: Who sent it.
    ///   - screen: The screen it was for.
    ///   - changes: How the state's lines changed.
    ///   - fields: The changed fields' paths.
    ///   - shared: The changed shared values' paths.
    public init(
      action: String, casePath: String, origin: ActionOrigin, screen: String, changes: [Hunk],
      fields: [String], shared: [String]
    ) {
      self.action = action
      self.casePath = casePath
      self.origin = origin
      self.screen = screen
      self.changes = changes
      self.fields = fields
      self.shared = shared
    }

    private enum CodingKeys: String, CodingKey {
      case action
      case casePath = "case"
      case origin, screen, changes, fields, shared
    }

    /// Encodes the step; empty lists are left out, to keep long sessions small.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(action, forKey: .action)
      try container.encode(casePath, forKey: .casePath)
      try container.encode(origin, forKey: .origin)
      try container.encode(screen, forKey: .screen)
      if !changes.isEmpty { try container.encode(changes, forKey: .changes) }
      if !fields.isEmpty { try container.encode(fields, forKey: .fields) }
      if !shared.isEmpty { try container.encode(shared, forKey: .shared) }
    }

    /// Decodes a step; a missing list is empty.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      action = try container.decode(String.self, forKey: .action)
      casePath = try container.decode(String.self, forKey: .casePath)
      origin = try container.decode(ActionOrigin.self, forKey: .origin)
      screen = try container.decode(String.self, forKey: .screen)
      changes = try container.decodeIfPresent([Hunk].self, forKey: .changes) ?? []
      fields = try container.decodeIfPresent([String].self, forKey: .fields) ?? []
      shared = try container.decodeIfPresent([String].self, forKey: .shared) ?? []
    }
  }

  /// A run of changed lines: in the state before the step, `removed` lines from `start` were
  /// replaced by `inserted`. A step's hunks apply in order, each to the result of the last.
  public struct Hunk: Codable, Sendable, Equatable {
    /// The index of the first changed line.
    public var start: Int
    /// How many lines were removed there.
    public var removed: Int
    /// The lines put in their place.
    public var inserted: [String]

    /// A hunk.
    ///
    /// ```swift
    /// let hunk = RecordedSession.Hunk(start: 1, removed: 1, inserted: ["  count: 2"])
    /// ```
    ///
    /// - Parameters:
    ///   - start: The first changed line's index.
    ///   - removed: How many lines were removed.
    ///   - inserted: The lines inserted in their place.
    public init(start: Int, removed: Int, inserted: [String]) {
      self.start = start
      self.removed = removed
      self.inserted = inserted
    }

    /// Encodes as `[start, removed, [lines]]`: a long session repeats no key names.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(start)
      try container.encode(removed)
      try container.encode(inserted)
    }

    /// Decodes `[start, removed, [lines]]`.
    public init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      start = try container.decode(Int.self)
      removed = try container.decode(Int.self)
      inserted = try container.decode([String].self)
    }
  }

  /// The state's lines after step `index` (before the first step for `-1`).
  ///
  /// ```swift
  /// print(session.state(after: 2).joined(separator: "\n"))
  /// ```
  ///
  /// - Parameter index: The step, from -1 to `steps.count - 1`.
  /// - Returns: The lines, as ``stateDump(_:maxElements:)`` printed that state.
  public func state(after index: Int) -> [String] {
    var lines = initialState
    for step in steps.prefix(index + 1) { Self.apply(step.changes, to: &lines) }
    return lines
  }

  static func apply(_ changes: [Hunk], to lines: inout [String]) {
    for hunk in changes {
      let start = min(max(hunk.start, 0), lines.count)
      let end = min(start + max(hunk.removed, 0), lines.count)
      lines.replaceSubrange(start..<end, with: hunk.inserted)
    }
  }
}
