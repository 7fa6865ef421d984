/// Whether `count` distinct keys spread over a range of `span + 1` values are dense enough to be
/// placed in an array indexed by key (at most four slots per key, beyond a fixed 1,024): the
/// array then finds each key without hashing or comparing.
@inline(__always)
func keysFitDenseArray(span: UInt64, count: Int) -> Bool {
    span < 4 * UInt64(count) + 1_024
}
