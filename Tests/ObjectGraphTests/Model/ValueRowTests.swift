import Foundation
import Testing

@testable import ObjectGraph

/// `ValueRow` keeps kinds apart from payloads in memory it manages by hand: every kind must read
/// back as written, copies must not see each other's changes, and what a row references must be
/// released with it.
struct ValueRowTests {
    /// One value of every kind, a boxed `Decimal` and a to-one reference included.
    private static func everyKind(referencing space: ObjectIDSpace) throws -> [AttributeValue] {
        [
            .null, .integer(-42), .integer(Int64.min), .double(-.infinity), .float(0.1), .decimal(Decimal(string: "12345.6789")!),
            .string(""), .string("a string too long to be stored inside the sixteen bytes of a small string"),
            .boolean(true), .boolean(false), .date(Date(timeIntervalSinceReferenceDate: 700_000_000.25)), .binary(Data([0, 1, 2])),
            .uuid(UUID()), .uri(URL(string: "https://example.com/path?q=a%20b")!), .json(try JSONDocument(encoding: ["k": [1, 2]])),
            .object(ManagedObjectID(space: space, primaryKey: 7)), .object(ManagedObjectID(space: space, temporaryNumber: 3))
        ]
    }

    private static func space() -> ObjectIDSpace {
        ObjectIDSpace(entity: PredicateFixtures.person, storeIdentifier: "S")
    }

    @Test func everyKindReadsBackAsWritten() throws {
        let values = try Self.everyKind(referencing: Self.space())
        let row = ValueRow(values)
        #expect(row.count == values.count)
        #expect(Array(row) == values)
        for (slot, value) in values.enumerated() { #expect(row[slot] == value, "slot \(slot)") }
    }

    @Test func changingACopyLeavesTheOriginal() throws {
        let values = try Self.everyKind(referencing: Self.space())
        let original = ValueRow(values)
        var copy = original
        copy[6] = .integer(1)
        copy[12] = .string("changed")
        copy.append(.null)
        #expect(Array(original) == values)
        #expect(copy[6] == .integer(1) && copy[12] == .string("changed") && copy.count == values.count + 1)
        #expect(copy != original)
        var unshared = original.unsharedCopy()
        #expect(unshared == original)
        unshared[0] = .boolean(true)
        #expect(original[0] == .null)
    }

    @Test func appendsGrowPastTheReservedCapacity() {
        var row = ValueRow(capacity: 2)
        for number in 0..<100 { row.append(.string("value \(number)")) }
        #expect(row.count == 100)
        #expect(row[99] == .string("value 99"))
        #expect(row.map { if case .string(let text) = $0 { text } else { "" } } == (0..<100).map { "value \($0)" })
    }

    @Test func rangeReplacementKeepsTheRest() {
        var row: ValueRow = [.integer(1), .integer(2), .integer(3), .integer(4)]
        row.replaceSubrange(1..<3, with: [.string("a"), .string("b"), .string("c")])
        #expect(Array(row) == [.integer(1), .string("a"), .string("b"), .string("c"), .integer(4)])
        row.removeAll()
        #expect(row.isEmpty && row == [])
    }

    @Test func equalRowsHashAlike() throws {
        let values = try Self.everyKind(referencing: Self.space())
        let first = ValueRow(values)
        let second = ValueRow(values)
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
        #expect(ValueRow(repeating: .null, count: 3) == [.null, .null, .null])
        #expect(ValueRow(repeating: .null, count: 3) != [.null, .null])
        #expect("\(ValueRow([.integer(1), .string("x")]))" == "\([AttributeValue.integer(1), .string("x")])")
    }

    @Test func stringsAreReadInPlace() {
        let long = "a string too long to be stored inline — with non-ASCII text"
        let row: ValueRow = [.string(long), .string(""), .string("short"), .integer(7), .null]
        #expect(row.withStringUTF8(at: 0) { Array($0) } == Array(long.utf8))
        #expect(row.withStringUTF8(at: 1) { $0.count } == 0)
        #expect(row.withStringUTF8(at: 2) { String(decoding: $0, as: UTF8.self) } == "short")
        #expect(row.withStringUTF8(at: 3) { $0.count } == nil)
        #expect(row.withStringUTF8(at: 4) { $0.count } == nil)
    }

    @Test func referencedValuesAreReleasedWithTheRow() throws {
        weak var released: ObjectIDSpace?
        do {
            let space = Self.space()
            released = space
            var row = ValueRow(try Self.everyKind(referencing: space))
            var copy = row
            copy[0] = .object(ManagedObjectID(space: space, primaryKey: 1))
            row[15] = .null
            row.replaceSubrange(0..<2, with: [.object(ManagedObjectID(space: space, primaryKey: 2))])
            #expect(copy.count == 17 && row.count == 16)
        }
        #expect(released == nil, "a row, a copy or a replaced slot still holds the ID space")
    }

    /// A row filled from UTF-8 bytes, as a store's reader fills it, with every string given room
    /// in its text: long ASCII strings are kept there, the others as `String`s.
    private static func filledRow(
        _ strings: [String], extra: [AttributeValue] = [], layout: ValueRowLayout = .allWide
    ) -> ValueRow {
        let capacity = strings.reduce(0) { $0 + ValueRow.textCapacity(forStringOf: $1.utf8.count) }
        return ValueRow(count: strings.count + extra.count, textCapacity: capacity, layout: layout) { slot, row in
            if slot < strings.count {
                var string = strings[slot]
                string.withUTF8 { row.appendString(utf8: $0) }
            } else {
                row.append(extra[slot - strings.count])
            }
        }
    }

    private static let filledStrings = [
        "a long ASCII string kept as the row's own text", "", "short", "exactly sixteen!",
        "a long string with non-ASCII text — kept as a String", "another long ASCII string, the second text"
    ]

    @Test func stringsFilledFromBytesReadBackAsWritten() {
        let row = Self.filledRow(Self.filledStrings, extra: [.integer(7), .null])
        #expect(Array(row) == Self.filledStrings.map { .string($0) } + [.integer(7), .null])
        for (slot, string) in Self.filledStrings.enumerated() {
            #expect(row.withStringUTF8(at: slot) { Array($0) } == Array(string.utf8), "slot \(slot)")
        }
        #expect(row.withStringUTF8(at: 6) { $0.count } == nil)
        #expect((0..<8).map { row.isNull(at: $0) } == [false, false, false, false, false, false, false, true])
        #expect(row == ValueRow(Self.filledStrings.map { .string($0) } + [.integer(7), .null]))
        #expect(row.hashValue == ValueRow(Self.filledStrings.map { .string($0) } + [.integer(7), .null]).hashValue)
    }

    @Test func copiesOfFilledRowsKeepTheirText() {
        let original = Self.filledRow(Self.filledStrings)
        var copy = original
        copy[5] = .string("changed")
        copy[0] = .integer(1)
        copy.append(.string("appended, long enough to need a heap block"))
        #expect(Array(original) == Self.filledStrings.map { .string($0) })
        #expect(
            Array(copy) == [.integer(1)] + Self.filledStrings[1..<5].map { .string($0) } + [
                .string("changed"), .string("appended, long enough to need a heap block")
            ])
        let unshared = original.unsharedCopy()
        #expect(unshared == original)
        #expect(unshared.withStringUTF8(at: 5) { String(decoding: $0, as: UTF8.self) } == Self.filledStrings[5])
    }

    @Test func textBeyondTheRowsCapacityIsKeptAsAString() {
        let long = "a long ASCII string that the row was given no text room for"
        let row = ValueRow(count: 2, textCapacity: 10, layout: .allWide) { slot, row in
            var string = slot == 0 ? long : "too long for ten bytes of text"
            string.withUTF8 { row.appendString(utf8: $0) }
        }
        #expect(Array(row) == [.string(long), .string("too long for ten bytes of text")])
    }

    /// Every slot narrow (8 bytes): what does not fit is kept behind a reference.
    private static let allNarrow = ValueRowLayout(narrowSlots: .max)

    @Test func everyKindReadsBackFromNarrowSlots() throws {
        let values = try Self.everyKind(referencing: Self.space())
        let row = ValueRow(values, layout: Self.allNarrow)
        #expect(Array(row) == values)
        #expect(row == ValueRow(values))
        #expect(row.hashValue == ValueRow(values).hashValue)
        #expect(
            row.withStringUTF8(at: 7) { Array($0) }
                == Array("a string too long to be stored inside the sixteen bytes of a small string".utf8))
        #expect((0..<values.count).map { row.isNull(at: $0) } == values.map(\.isNull))
        var changed = row
        changed[0] = .string("now a string in a narrow slot")
        changed[13] = .integer(9)
        changed[7] = .null
        #expect(Array(row) == values)
        #expect(changed[0] == .string("now a string in a narrow slot") && changed[13] == .integer(9) && changed[7] == .null)
        #expect(Array(changed.unsharedCopy()) == Array(changed))
    }

    @Test func valuesInNarrowSlotsAreReleasedWithTheRow() throws {
        weak var released: ObjectIDSpace?
        do {
            let space = Self.space()
            released = space
            var row = ValueRow(try Self.everyKind(referencing: space), layout: Self.allNarrow)
            let copy = row.unsharedCopy()
            row[15] = .null
            row[16] = .string("replaced")
            #expect(copy.count == 17 && copy[15] == .object(ManagedObjectID(space: space, primaryKey: 7)))
        }
        #expect(released == nil, "a row or its copy still holds the ID space")
    }

    @Test func entityLayoutsMakeNumbersAndDatesNarrow() {
        let types: [AttributeType] = [.integer64, .string, .double, .date, .boolean, .uuid, .decimal, .binary, .integer16]
        let layout = ValueRowLayout(attributeTypes: types)
        #expect(layout.narrowSlots == 0b1_0101_1101)
        // Slots from 64 on are wide: a row of 70 integers takes 64 narrow and 6 wide slots, and
        // finds each payload past several words of kinds.
        let integers = (0..<70).map { AttributeValue.integer(Int64($0)) }
        let wide = ValueRow(integers, layout: ValueRowLayout(attributeTypes: Array(repeating: .integer64, count: 70)))
        #expect(Array(wide) == integers)
        #expect(wide.allocatedBytes == 32 + 72 + 64 * 8 + 6 * 16)
    }

    /// A row of four numbers and three strings (the benchmarks' `Person`) in its entity's layout
    /// takes 120 bytes: a 128-byte heap block instead of a 160-byte one.
    @Test func narrowSlotsMakeRowsSmaller() {
        let types: [AttributeType] = [.integer64, .string, .string, .integer64, .double, .date, .string]
        let values: [AttributeValue] = [
            .integer(1), .string("Ada Lovelace"), .string("ada@example.com"), .integer(36), .double(0.5),
            .date(Date(timeIntervalSinceReferenceDate: 0)), .null
        ]
        let narrow = ValueRow(values, layout: ValueRowLayout(attributeTypes: types))
        let wide = ValueRow(values)
        #expect(Array(narrow) == values)
        #expect(narrow.allocatedBytes == 120)
        #expect(wide.allocatedBytes == 152)
        #expect(narrow.unsharedCopy().allocatedBytes == 120)
    }

    @Test func filledRowsKeepTextInNarrowLayouts() {
        let row = Self.filledRow(
            Self.filledStrings, extra: [.integer(7), .date(Date(timeIntervalSinceReferenceDate: 1))], layout: Self.allNarrow)
        #expect(Array(row) == Self.filledStrings.map { .string($0) } + [.integer(7), .date(Date(timeIntervalSinceReferenceDate: 1))])
        #expect(row.withStringUTF8(at: 0) { String(decoding: $0, as: UTF8.self) } == Self.filledStrings[0])
        var copy = row
        copy.append(.string("appended past the layout: a wide slot"))
        #expect(copy[8] == .string("appended past the layout: a wide slot") && row.count == 8)
    }
}
