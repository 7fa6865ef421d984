/// A hash of one machine word for `Set` and `Dictionary` (`Hashable._rawHashValue(seed:)`): the
/// word and the table's seed mixed by multiplication and shifts (MurmurHash3's 64-bit finaliser),
/// instead of SipHash's rounds. For keys that are hashed once per object on hot paths (object
/// IDs in registries and change sets, objects in relationship sets), where collisions cannot be
/// forced from outside.
enum WordHash {
    @inline(__always)
    static func hash(_ word: UInt64, seed: Int) -> Int {
        var bits = word ^ UInt64(bitPattern: Int64(seed))
        bits = (bits ^ (bits >> 33)) &* 0xff51_afd7_ed55_8ccd
        bits = (bits ^ (bits >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return Int(truncatingIfNeeded: bits ^ (bits >> 33))
    }
}
