extension Store where Action: BindableAction, Action.State == State {
  /// Reads a field of a bindable feature's state, and writing it sends the binding action that
  /// sets it: `store.query = "seoul"` sends `.binding(.set(\.query, "seoul"))`, which the
  /// feature's ``BindingReducer`` writes into the state.
  ///
  /// This is what a SwiftUI view's `@Bindable var store` and `TextField(text: $store.query)`
  /// write through (a store is a class, so its dynamic member is a reference-writable key
  /// path); the core needs no UI framework for it, and any code can use it:
  ///
  /// ```swift
  /// struct Search: Reducer {
  ///   struct State: Equatable { var query = "" }
  ///   enum Action: BindableAction { case binding(BindingAction<State>) }
  ///   var body: some ReducerOf<Self> { BindingReducer() }
  /// }
  ///
  /// let store = Store(initialState: Search.State()) { Search() }
  /// store.query = "seoul"   // sends .binding(.set(\.query, "seoul"))
  /// store.query             // "seoul"
  /// ```
  ///
  /// Every write sends one action, also a write of the value the field already holds, as in
  /// TCA: a reducer that reacts to `case .binding(\.query):` hears every write a control makes,
  /// and a write never depends on what the store held when it was made. Writing a part of a
  /// field (`store.filter.city = "Seoul"`) sends the whole field (`.set(\.filter, …)`).
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value>
  ) -> Value {
    get { state[keyPath: keyPath] }
    set { send(.binding(.set(keyPath, newValue))) }
  }
}
