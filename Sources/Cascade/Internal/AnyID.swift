/// A type-erased identifier that can cross tasks: cancellation ids and navigation positions.
///
/// `@unchecked Sendable` because `AnyHashable` is not `Sendable` in general; every
/// initializer here only accepts `Sendable` values or key paths, which are immutable.
@usableFromInline
struct _AnyID: Hashable, @unchecked Sendable {
  let base: AnyHashable

  @usableFromInline
  init<ID: Hashable & Sendable>(_ id: ID) { self.base = AnyHashable(id) }

  @usableFromInline
  init(keyPath: AnyKeyPath) { self.base = AnyHashable(keyPath) }
}
