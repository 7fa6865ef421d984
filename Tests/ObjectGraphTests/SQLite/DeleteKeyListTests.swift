import Testing

@testable import ObjectGraph

/// The key lists deletes hand to `json_each`: JSON arrays of integers, whatever their size.
@Suite struct DeleteKeyListTests {
    @Test func keysAreWrittenAsAJSONArray() {
        #expect(SQLiteStoreState.keyList([]) == "[]")
        #expect(SQLiteStoreState.keyList([7]) == "[7]")
        #expect(SQLiteStoreState.keyList([1, 10, 99, 100, 1_234_567]) == "[1,10,99,100,1234567]")
        #expect(SQLiteStoreState.keyList([Int64.max, 0, -5, Int64.min]) == "[9223372036854775807,0,-5,-9223372036854775808]")
    }
}
