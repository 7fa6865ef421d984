import Foundation
import PostgresNIO
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// Statements that write many rows at once take each column as one array: values
/// must come back exactly (the conformance tests write every type that way), and one statement's
/// rows are bounded by count and by the size of their values.
struct PostgreSQLArrayStatementTests {
    @Test func aRunEndsAtTheRowLimitTheByteLimitOrTheFirstRowThatDoesNotBelong() {
        let rows: [(group: Int, values: [AttributeValue])] =
            (0..<10).map { (0, [.integer(Int64($0))]) } + [(1, [.integer(10)])]
            + (0..<5).map { _ in (1, [.string(String(repeating: "x", count: 1_000))]) }
        let values: ((group: Int, values: [AttributeValue])) -> [AttributeValue] = { $0.values }
        #expect(PostgreSQLStoreState.arrayRunEnd(rows, from: 0, bindings: values) { $0.group == 0 } == 10)
        #expect(PostgreSQLStoreState.arrayRunEnd(rows, from: 0, bindings: values, rowLimit: 4) { $0.group == 0 } == 4)
        #expect(PostgreSQLStoreState.arrayRunEnd(rows, from: 10, bindings: values, byteLimit: 2_500) { $0.group == 1 } == 14)
        #expect(PostgreSQLStoreState.arrayRunEnd(rows, from: 15, bindings: values, byteLimit: 10) { $0.group == 1 } == 16)
    }

    @Test func anArrayHoldsEachValueAsItsBindingWouldAndSaysItsType() throws {
        let array = try PostgreSQLBinaryArray([.string("ab"), .null, .string("")])
        #expect(array.elementType == "text")
        #expect(array.data.type == .textArray)
        var bytes = try #require(array.data.value)
        let header = (0..<5).map { _ in bytes.readInteger(as: Int32.self) }
        // One dimension, NULLs held, text elements, three of them, the first index 1.
        #expect(header == [1, 1, 25, 3, 1])
        #expect(bytes.readInteger(as: Int32.self) == 2)
        #expect(bytes.readString(length: 2) == "ab")
        #expect(bytes.readInteger(as: Int32.self) == -1)
        #expect(bytes.readInteger(as: Int32.self) == 0)
        #expect(bytes.readableBytes == 0)

        let numbers = try PostgreSQLBinaryArray([.double(-0.0), .double(.infinity)])
        #expect(numbers.elementType == "double precision")
        var numberBytes = try #require(numbers.data.value)
        numberBytes.moveReaderIndex(forwardBy: 4)
        #expect(numberBytes.readInteger(as: Int32.self) == 0)  // no NULLs
        numberBytes.moveReaderIndex(forwardBy: 12)
        #expect(numberBytes.readInteger(as: Int32.self) == 8)
        // −0.0 is bound as 0.0, as SQLite keeps it.
        #expect(numberBytes.readInteger(as: UInt64.self) == 0)

        #expect(try PostgreSQLBinaryArray([.null, .null]).elementType == nil)
        #expect(throws: ObjectGraphError.self) { try PostgreSQLBinaryArray([.string("a\u{0}b")]) }
        let mixed = #expect(throws: ObjectGraphError.self) { try PostgreSQLBinaryArray([.integer(1), .string("1")]) }
        #expect(mixed?.message.contains("as one PostgreSQL array") == true)
    }
}
