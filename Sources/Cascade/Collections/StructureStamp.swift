import Synchronization

private let _stampCounter = Atomic<UInt64>(0)

/// A process-unique number given to a collection each time its set of ids changes.
///
/// Navigation reducers compare a collection's stamp before and after an action: equal stamps
/// mean no element was added or removed, so the common case costs one integer compare instead
/// of a scan of the ids.
@usableFromInline
func _nextStructureStamp() -> UInt64 {
  _stampCounter.wrappingAdd(1, ordering: .relaxed).newValue
}
