/// The values features reach the outside world through, bound for the current task.
///
/// A store pins the values current when it is created (plus the overrides given to its
/// initializer) and runs every reducer inside them.
public struct DependencyValues: Sendable {
  @TaskLocal static var _current = DependencyValues()

  var storage: [ObjectIdentifier: any Sendable] = [:]

  /// Empty values: every dependency reads its default.
  public init() {}
}
