/// A weak reference in a box of its own: shared by everything that must not keep `object`
/// alive (a store core's cascades, a store's cache of child stores), and retained once where a
/// weak reference stored in place would be copied and destroyed at each read.
///
/// `@unchecked Sendable`: `object` is set once, before the box is shared, and weak references
/// are safe to read from any thread.
@usableFromInline
final class _WeakReference<Object: AnyObject>: @unchecked Sendable {
  @usableFromInline weak var object: Object?

  @usableFromInline
  init(_ object: Object?) { self.object = object }
}
