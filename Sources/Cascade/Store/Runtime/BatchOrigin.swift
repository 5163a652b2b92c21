/// Who started the send-loop batch that is running: what a ``Recorder`` reads to tell an
/// action the user sent from one an effect sent.
///
/// A batch begins with one action: sent from outside the store (a user's tap, a test's `send`)
/// or by an effect's `Send`. Every other action reduced in the batch was sent synchronously by
/// an effect (`.send`). The loop writes two words per batch, never per action; a recorder
/// compares the serial with the last one it saw to find the batch's first action.
@usableFromInline
enum _BatchOrigin {
  // `nonisolated(unsafe)`: written only by the send loop, which runs on the main actor, and
  // read only by reducers running inside that loop.
  @usableFromInline nonisolated(unsafe) static var serial: UInt64 = 0
  @usableFromInline nonisolated(unsafe) static var startedByUser = false

  @inlinable
  static func begin(startedByUser: Bool) {
    serial &+= 1
    Self.startedByUser = startedByUser
  }
}
