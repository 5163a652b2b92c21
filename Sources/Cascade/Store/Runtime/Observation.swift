import Observation

/// What every store of one tree shares, whatever its state type: the observation registrar,
/// the running effects and the subscribers of the async observation.
@usableFromInline
@MainActor
package class _CoreBase: Observable {
  @usableFromInline let registrar = ObservationRegistrar()
  @usableFromInline package let runner: _EffectRunner
  private var subscribers: [_WeakSubscriber] = []
  /// Whether the state has been read through a store since the last batch told the registrar:
  /// only then can an observer be registered, so only then does a batch tell the registrar.
  /// Observation's observers are one-shot (`withObservationTracking`, `Observations`, and the
  /// views built on them hear one change, then read again to hear the next), so once a batch
  /// has told the registrar, nobody is left registered who has not read since.
  @usableFromInline @exclusivity(unchecked) final var isObserved = false
  /// Whether the running batch told the registrar `willSet`, so must tell it `didSet`.
  @usableFromInline @exclusivity(unchecked) final var isNotifying = false
  @usableFromInline @exclusivity(unchecked) final var hasSubscribers = false

  /// `\_CoreBase._state`, made once: a key path literal is looked up in the runtime each time
  /// it is evaluated, and the registrar is told twice per batch.
  @usableFromInline let stateKeyPath: KeyPath<_CoreBase, Void> = \_CoreBase._state

  @usableFromInline init(runner: _EffectRunner) { self.runner = runner }

  /// The number of throttle windows the store remembers.
  package var throttleEntryCount: Int { 0 }

  /// The key path observers register on: one change per batch, whichever store they read.
  @usableFromInline var _state: Void { () }

  @usableFromInline
  final func accessState() {
    isObserved = true
    registrar.access(self, keyPath: stateKeyPath)
  }

  @inlinable
  final func willChange() {
    guard isObserved else { return }
    // Cleared before the registrar runs: an observer that registers again while it hears
    // `willSet` (reading the state from its handler) is heard at the next batch.
    isObserved = false
    isNotifying = true
    registrar.willSet(self, keyPath: stateKeyPath)
  }

  @inlinable
  final func didChange() {
    if isNotifying {
      isNotifying = false
      registrar.didSet(self, keyPath: stateKeyPath)
    }
    if hasSubscribers { notifySubscribers() }
    if hasElementGroups { notifyElementGroups() }
  }

  /// The collections whose row stores are observed on their own (`ElementObservation.swift`).
  @exclusivity(unchecked) private var elementGroups: [_WeakReference<_ElementGroupBase>] = []
  @usableFromInline @exclusivity(unchecked) final var hasElementGroups = false

  final func register(_ group: _ElementGroupBase) {
    elementGroups.append(_WeakReference(group))
    hasElementGroups = true
  }

  @usableFromInline
  final func notifyElementGroups() {
    // An observer may send, and so end a batch, while it hears of a change: the groups are
    // read from a copy (which shares the array's storage unless that happens).
    let groups = elementGroups
    var released = false
    for entry in groups {
      if let group = entry.object { group.batchDidEnd() } else { released = true }
    }
    if released {
      elementGroups.removeAll { $0.object == nil }
      hasElementGroups = !elementGroups.isEmpty
    }
  }

  @usableFromInline
  final func notifySubscribers() {
    subscribers.removeAll { $0.subscriber == nil }
    hasSubscribers = !subscribers.isEmpty
    for subscriber in subscribers { subscriber.subscriber?.stateDidChange() }
  }

  final func subscribe(_ subscriber: any _Subscriber) {
    subscribers.append(_WeakSubscriber(subscriber: subscriber))
    hasSubscribers = true
  }

  /// Subscribers the core keeps alive itself (store-to-store links), until they finish.
  private var retained: [AnyObject] = []

  final func retain<S: _Subscriber>(_ subscriber: S) where S: _Finishable {
    retained.removeAll { ($0 as? any _Finishable)?.isFinished ?? true }
    retained.append(subscriber)
    subscribe(subscriber)
  }

}

/// Something that wants to hear, on the main actor, that a batch has ended.
@MainActor
protocol _Subscriber: AnyObject {
  func stateDidChange()
}

/// A retained subscriber that can tell it is done.
@MainActor
protocol _Finishable: AnyObject {
  var isFinished: Bool { get }
}

@MainActor
struct _WeakSubscriber {
  weak var subscriber: (any _Subscriber)?
}
