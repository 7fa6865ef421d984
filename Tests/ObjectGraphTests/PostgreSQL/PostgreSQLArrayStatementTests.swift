import Foundation
import Testing

@testable import ObjectGraph
@testable import ObjectGraphPostgres

/// Statements that write many rows at once take each column as the text of one array: values
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

    @Test func arrayTextQuotesWhatItMustAndSaysItsType() throws {
        let text = try PostgreSQLArrayLiteral([.string(#"a"b\c"#), .null, .string("plain"), .binary(Data([0, 0xAB]))])
        #expect(text.text == #"{"a\"b\\c",NULL,"plain","\\x00ab"}"#)
        #expect(text.elementType == "text")
        #expect(try PostgreSQLArrayLiteral([.null, .double(-0.0), .double(.infinity)]).text == "{NULL,0.0,Infinity}")
        #expect(try PostgreSQLArrayLiteral([.null, .null]).elementType == nil)
        #expect(throws: ObjectGraphError.self) { try PostgreSQLArrayLiteral([.string("a\u{0}b")]) }
    }
}
