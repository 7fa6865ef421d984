import Foundation

extension AttributeValue {
    /// Whether two values are the same as the store sees them: strings byte for byte (SQLite's
    /// BINARY collation, not Swift's canonical equivalence), numbers by value. Change tracking and
    /// uniqueness use this, so "é" and "e\u{301}" are different values, as they are in SQLite.
    func isStoredEqual(to other: AttributeValue) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.uri(let a), .uri(let b)): a.absoluteString.utf8.elementsEqual(b.absoluteString.utf8)
        case (.decimal(let a), .decimal(let b)): a.description == b.description
        default: self == other
        }
    }
}

/// A value row (or part of one) hashed and compared as the store compares values; the key of
/// uniqueness indexes in the in-memory store.
struct StoredValuesKey: Hashable {
    let values: [AttributeValue]

    static func == (lhs: StoredValuesKey, rhs: StoredValuesKey) -> Bool {
        lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy { $0.isStoredEqual(to: $1) }
    }

    func hash(into hasher: inout Hasher) {
        for value in values {
            switch value {
            case .string(let string):
                hasher.combine(0 as UInt8)
                for byte in string.utf8 { hasher.combine(byte) }
            case .uri(let url):
                for byte in url.absoluteString.utf8 { hasher.combine(byte) }
            case .decimal(let decimal): hasher.combine(decimal.description)
            case .double(let double): hasher.combine(double == 0 ? 0 : double)
            default: hasher.combine(value)
            }
        }
    }
}
