extension Store {
  /// Makes another store react to this one without a UI: each time the value `transform`
  /// derives from this store's state changes, `action` of the new value is sent to `target`,
  /// synchronously, at the end of the batch that changed it.
  ///
  /// ```swift
  /// // The map's selected pin drives the music search, and the chosen song drives the map.
  /// let pinToSearch = mapStore.forward(\.selectedPin, to: musicStore, action: MusicSearch.Action.pinChanged)
  /// let songToMap = musicStore.forward(\.chosenSong, to: mapStore, action: Map.Action.songChosen)
  /// ```
  ///
  /// Values are distinct until changed (two stores forwarding to each other settle instead of
  /// ping-ponging). A ``Shared`` value `transform` reads is followed too: a change to it made
  /// outside this store (by an effect, another store, another task) is forwarded on the main
  /// actor right after. The link ends when either store is released or the returned link is
  /// cancelled; it does not keep either store alive.
  @discardableResult
  public func forward<Value: Equatable, TargetState, TargetAction>(
    _ transform: @escaping @MainActor (State) -> Value,
    to target: Store<TargetState, TargetAction>,
    action: @escaping @MainActor (Value) -> TargetAction
  ) -> StoreLink {
    let link = StoreLink()
    let forwarder = _Forwarder(
      link: link, source: self, target: target, transform: transform, action: action)
    core.retain(forwarder)
    projection.startListening()
    return link
  }
}

/// A link between two stores made by ``Store/forward(_:to:action:)``.
@MainActor
public final class StoreLink {
  /// Whether the link still forwards.
  public private(set) var isActive = true

  nonisolated init() {}

  /// Stops forwarding.
  public func cancel() { isActive = false }
}

/// Holds the source and target weakly; the source's core holds it until it ends.
@MainActor
final class _Forwarder<SourceState, SourceAction, Value: Equatable, TargetState, TargetAction>:
  _Subscriber, _Finishable, _SharedListener
{
  /// The last value forwarded, or taken as the starting point.
  private var last: Value?
  private let link: StoreLink
  private weak var source: Store<SourceState, SourceAction>?
  private weak var target: Store<TargetState, TargetAction>?
  private let transform: @MainActor (SourceState) -> Value
  private let action: @MainActor (Value) -> TargetAction

  init(
    link: StoreLink, source: Store<SourceState, SourceAction>,
    target: Store<TargetState, TargetAction>,
    transform: @escaping @MainActor (SourceState) -> Value,
    action: @escaping @MainActor (Value) -> TargetAction
  ) {
    self.link = link
    self.source = source
    self.target = target
    self.transform = transform
    self.action = action
    // The starting value is not forwarded; reading it starts listening to its shared values.
    last = _SharedReadRecorder.read(listeningWith: self) { transform(source.projection.get()) }
  }

  nonisolated func sharedValueDidChange() {
    Task { @MainActor [weak self] in self?.stateDidChange() }
  }

  /// Whether the forwarder is finished and can be dropped.
  var isFinished: Bool { !link.isActive || source == nil || target == nil }

  func stateDidChange() {
    guard !isFinished, let source, let target else { return }
    let value = _SharedReadRecorder.read(listeningWith: self) {
      transform(source.projection.get())
    }
    guard value != last else { return }
    last = value
    target.send(action(value))
  }
}
