/// An action for one element of an identified collection: the element's id and its action.
///
/// A parent that holds rows in an ``IdentifiedArray`` gives them one action case carrying this
/// type, and
/// ``Reducer/forEach(_:action:element:fileID:line:)-(_,(IdentifiedAction<ID,ElementAction>)->Action,_,_,_)``
/// routes it to the element.
///
/// ```swift
/// enum Action {
///   case rows(IdentifiedActionOf<Row>)
/// }
///
/// store.send(.rows(.element(id: row.id, action: .toggleTapped)))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  /// `action` for the element with `id`.
  case element(id: ID, action: Action)

  /// The element's id.
  public var id: ID {
    switch self {
    case let .element(id, _): id
    }
  }

  /// The element's action.
  public var action: Action {
    switch self {
    case let .element(_, action): action
    }
  }
}

/// The element action of a feature's rows: `IdentifiedActionOf<Row>`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}
