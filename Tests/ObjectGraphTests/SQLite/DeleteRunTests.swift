import Testing

@testable import ObjectGraph

/// Consecutive keys are deleted as ranges.
@Suite struct DeleteRunTests {
    @Test func keysAreCutIntoRunsOfConsecutiveIntegers() {
        #expect(SQLiteStoreState.consecutiveRuns([]) == [])
        #expect(SQLiteStoreState.consecutiveRuns([3, 4, 5, 9, 11, 12]) == [3..<6, 9..<10, 11..<13])
        #expect(SQLiteStoreState.consecutiveRuns([7]) == [7..<8])
        // Out of order: only ascending neighbours join.
        #expect(SQLiteStoreState.consecutiveRuns([2, 1, 3]) == [2..<3, 1..<2, 3..<4])
    }
}
