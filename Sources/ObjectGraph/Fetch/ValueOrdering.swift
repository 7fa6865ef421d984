import Foundation

/// Compares two stored values exactly as SQLite compares the column values they are stored as,
/// so in-memory filtering and sorting agree with the SQLite store. Returns -1, 0 or 1.
///
/// SQLite orders by storage class first — NULL < numbers < text < blobs
/// (https://www.sqlite.org/datatype3.html#sort_order) — then within the class:
/// - numbers (integers, booleans as 0/1, doubles, floats, dates as seconds since the reference
///   date) by exact numeric value, integers against doubles without rounding;
/// - text (strings, decimals as their description, URLs as their absolute string, JSON) by
///   UTF-8 bytes, which is SQLite's BINARY collation, not Swift's Unicode-aware `<`;
/// - blobs (data, UUIDs as their 16 bytes) by bytes.
func compareStored(_ a: AttributeValue, _ b: AttributeValue) -> Int {
    // Two references (to-one foreign keys) are equal when they name the same object; an unsaved
    // object has no key in the store and equals only itself.
    if case .object(let x) = a, case .object(let y) = b {
        if x == y { return 0 }
        let keyX = (x.isTemporaryID ? 1 : 0, x.primaryKey ?? 0, x.entity.index)
        let keyY = (y.isTemporaryID ? 1 : 0, y.primaryKey ?? 0, y.entity.index)
        if keyX != keyY { return keyX < keyY ? -1 : 1 }
        return ObjectIdentifier(x.space) == ObjectIdentifier(y.space) ? 0 : (ObjectIdentifier(x.space) < ObjectIdentifier(y.space) ? -1 : 1)
    }
    let classA = storageClass(a)
    let classB = storageClass(b)
    if classA != classB { return classA < classB ? -1 : 1 }
    switch classA {
    case .null:
        return 0
    case .number:
        return compareNumbers(StoredNumber(a), StoredNumber(b))
    case .text, .blob:
        return withStoredBytes(a) { bytesA in withStoredBytes(b) { bytesB in compareBytes(bytesA, bytesB) } }
    }
}

/// A decimal column's value as a number: the Double its text stands for, correctly rounded.
/// Decimals are compared and sorted as numbers through this conversion, in SQL as
/// `objectgraph_real(…)` on SQLite (`SQLiteRealFunction`) and `CAST(… AS double precision)` on
/// PostgreSQL, which round alike. Other values are returned unchanged.
func castToReal(_ value: AttributeValue) -> AttributeValue {
    guard case .decimal(let decimal) = value else { return value }
    return .double(realValue(of: decimal.description))
}

/// SQLite's storage classes, in their sort order.
private enum StorageClass: Int, Comparable {
    case null, number, text, blob

    static func < (lhs: StorageClass, rhs: StorageClass) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The storage class each kind of value is written as (see the storage mapping).
private func storageClass(_ value: AttributeValue) -> StorageClass {
    switch value {
    case .null: .null
    case .integer, .double, .float, .boolean, .date, .object: .number
    case .string, .decimal, .uri, .json: .text
    case .binary, .uuid: .blob
    }
}

/// A numeric value as SQLite holds it: INTEGER or REAL.
private enum StoredNumber {
    case integer(Int64)
    case real(Double)

    init(_ value: AttributeValue) {
        switch value {
        case .integer(let integer): self = .integer(integer)
        case .boolean(let boolean): self = .integer(boolean ? 1 : 0)
        case .double(let double): self = .real(double)
        case .float(let float): self = .real(Double(float))
        case .date(let date): self = .real(date.timeIntervalSinceReferenceDate)
        case .object(let objectID): self = .integer(objectID.primaryKey ?? 0)
        default: self = .integer(0)  // not a number: storageClass keeps these out
        }
    }
}

private func compareNumbers(_ a: StoredNumber, _ b: StoredNumber) -> Int {
    switch (a, b) {
    case (.integer(let x), .integer(let y)): x < y ? -1 : (x > y ? 1 : 0)
    case (.real(let x), .real(let y)): x < y ? -1 : (x > y ? 1 : 0)
    case (.integer(let x), .real(let y)): compareIntegerToReal(x, y)
    case (.real(let x), .integer(let y)): -compareIntegerToReal(y, x)
    }
}

/// An exact comparison of an integer with a double, as SQLite's `sqlite3IntFloatCompare` does:
/// converting the integer to a double would round above 2^53.
private func compareIntegerToReal(_ integer: Int64, _ real: Double) -> Int {
    // NaN never reaches a store (saves refuse it); answer something rather than trap in Int64(_:).
    if real.isNaN { return 1 }
    if real < -9_223_372_036_854_775_808.0 { return 1 }
    if real >= 9_223_372_036_854_775_808.0 { return -1 }
    let truncated = Int64(real)
    if integer != truncated { return integer < truncated ? -1 : 1 }
    // integer == trunc(real), which a double represents exactly: only a fraction can differ.
    let converted = Double(integer)
    return converted < real ? -1 : (converted > real ? 1 : 0)
}

/// Calls `body` with the bytes a text or blob value is stored as.
private func withStoredBytes<R>(_ value: AttributeValue, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    switch value {
    case .string(var string): return string.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    case .decimal(let decimal):
        var text = decimal.description
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    case .uri(let url):
        var text = url.absoluteString
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    case .json(let document): return document.data.withUnsafeBytes(body)
    case .binary(let data): return data.withUnsafeBytes(body)
    case .uuid(let uuid): return withUnsafeBytes(of: uuid.uuid, body)
    default: return body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
}

/// memcmp order, then the shorter first: SQLite's BINARY collation and blob comparison.
private func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    var index = 0
    while index < common {
        let x = a[index]
        let y = b[index]
        if x != y { return x < y ? -1 : 1 }
        index += 1
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
}
