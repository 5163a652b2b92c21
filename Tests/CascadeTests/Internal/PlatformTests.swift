import Testing

@testable import Cascade

/// The per-thread slots of `Internal/Platform.swift` keep the same promises on every branch:
/// with an OS thread key, and in the portable fallback (`-D CASCADE_PORTABLE`, a task-local),
/// which CI runs this suite with too.
@Suite struct PlatformTests {
  final class Marker: Sendable {}

  @Test func aThreadLocalValueIsSeenInsideItsCallOnly() {
    let slot = _ThreadLocal<Marker>()
    let outer = Marker()
    let inner = Marker()
    #expect(slot.current == nil)
    slot.with(outer) {
      #expect(slot.current === outer)
      slot.with(inner) { #expect(slot.current === inner) }
      #expect(slot.current === outer)
    }
    #expect(slot.current == nil)
  }

  @Test func aTaskStartedInsideTheCallDoesNotSeeTheValue() async {
    let slot = _ThreadLocal<Marker>()
    let marker = Marker()
    // A task inherits the task-locals of the code that starts it: the fallback must not hand
    // it the value, as a thread key does not.
    let task = slot.with(marker) { Task { slot.current == nil } }
    #expect(await task.value)
  }

  /// On the main actor: the send loop's slot has one owner at a time, the main actor's thread.
  @MainActor
  @Test func theSendLoopSlotIsSeenByItsCallOnly() async {
    let box = _DependencyBox(DependencyValues())
    #expect(_SendLoopSlot.current == nil)
    let task = _SendLoopSlot.with(unretained: Unmanaged.passUnretained(box)) {
      #expect(_SendLoopSlot.current === box)
      return Task { _SendLoopSlot.current == nil }
    }
    #expect(_SendLoopSlot.current == nil)
    #expect(await task.value)
    withExtendedLifetime(box) {}
  }
}
