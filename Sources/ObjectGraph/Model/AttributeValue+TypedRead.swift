import Foundation

extension AttributeValue {
    /// The payload as `T` when `T` is exactly the payload's Swift type (for integers, also `Int`,
    /// and `Int32` or `Int16` when the value fits), without going through `Any`: typed reads are
    /// the hot path of every fetch-and-read loop, and a dynamic cast from an existential costs
    /// more than the read itself.
    @inline(__always)
    func exactly<T>(_ type: T.Type) -> T? {
        switch self {
        case .string(let value): T.self == String.self ? unsafeBitCast(value, to: T.self) : nil
        case .integer(let value):
            if T.self == Int64.self {
                unsafeBitCast(value, to: T.self)
            } else if T.self == Int.self {
                unsafeBitCast(Int(value), to: T.self)
            }
            // A value that does not fit is left to the caller, which reports the mismatch.
            else if T.self == Int32.self, let narrow = Int32(exactly: value) {
                unsafeBitCast(narrow, to: T.self)
            } else if T.self == Int16.self, let narrow = Int16(exactly: value) {
                unsafeBitCast(narrow, to: T.self)
            } else {
                nil
            }
        case .double(let value): T.self == Double.self ? unsafeBitCast(value, to: T.self) : nil
        case .date(let value): T.self == Date.self ? unsafeBitCast(value, to: T.self) : nil
        case .boolean(let value): T.self == Bool.self ? unsafeBitCast(value, to: T.self) : nil
        case .float(let value): T.self == Float.self ? unsafeBitCast(value, to: T.self) : nil
        case .binary(let value): T.self == Data.self ? unsafeBitCast(value, to: T.self) : nil
        case .uuid(let value): T.self == UUID.self ? unsafeBitCast(value, to: T.self) : nil
        case .decimal(let value): T.self == Decimal.self ? unsafeBitCast(value, to: T.self) : nil
        case .uri(let value): T.self == URL.self ? unsafeBitCast(value, to: T.self) : nil
        case .json, .object, .null: nil
        }
    }
}
