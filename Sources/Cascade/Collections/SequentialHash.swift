/// The bucket hash of a key that is a number from a counter (a stack element id, an effect's
/// token): the number and the table's seed, mixed by a 64-bit finalizer (a multiply-xorshift
/// cascade) instead of SipHash.
///
/// SipHash defends a table against keys chosen to collide; these keys are not chosen, and the
/// table's seed, random per process, is mixed in before the finalizer, which is a bijection.
/// Mixed they must be: consecutive numbers used as they are would fill one long run of buckets,
/// which every lookup and removal near it walks.
@inlinable
func _sequentialHash(_ value: UInt64, seed: Int) -> Int {
  var bits = value ^ UInt64(bitPattern: Int64(seed))
  bits = (bits ^ (bits &>> 33)) &* 0xff51_afd7_ed55_8ccd
  bits = (bits ^ (bits &>> 33)) &* 0xc4ce_b9fe_1a85_ec53
  return Int(truncatingIfNeeded: bits ^ (bits &>> 33))
}
