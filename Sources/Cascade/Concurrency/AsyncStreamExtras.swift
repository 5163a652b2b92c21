extension AsyncStream {
  /// A stream that ends at once, with no element: a test double for an endpoint whose stream
  /// has nothing to say.
  ///
  /// ```swift
  /// $0.speechClient.startTask = { _ in .finished }
  /// ```
  public static var finished: Self { Self { $0.finish() } }

  /// A stream that never produces an element and never ends until the task iterating it is
  /// cancelled: a test double for a listener that stays silent.
  ///
  /// ```swift
  /// $0.locationClient.updates = { .never }
  /// ```
  public static var never: Self { Self { _ in } }
}

extension AsyncThrowingStream where Failure == any Error {
  /// A stream that ends at once, with no element, by finishing or by throwing `error`.
  ///
  /// ```swift
  /// $0.speechClient.startTask = { _ in .finished(throwing: SpeechClient.Failure()) }
  /// ```
  public static func finished(throwing error: (any Error)? = nil) -> Self {
    Self { $0.finish(throwing: error) }
  }

  /// A stream that never produces an element and never ends until the task iterating it is
  /// cancelled.
  ///
  /// ```swift
  /// $0.socket.messages = { .never }
  /// ```
  public static var never: Self { Self { _ in } }
}
