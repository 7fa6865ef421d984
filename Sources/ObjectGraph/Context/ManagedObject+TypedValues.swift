import Foundation

// Concrete overloads of `value(forKey:as:)` for the attribute types' own Swift types. Reading a
// value by key is the inner loop of every fetch-and-read; a generic call from another module is
// not specialised and pays for `Optional<T>` metadata on every read, which these avoid.
extension ManagedObject {
    /// The value of the attribute `key` as `String`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: String.Type) throws -> String? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Int`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Int.Type) throws -> Int? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Int64`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Int64.Type) throws -> Int64? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Int32`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Int32.Type) throws -> Int32? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Int16`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Int16.Type) throws -> Int16? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Double`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Double.Type) throws -> Double? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Float`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Float.Type) throws -> Float? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Bool`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Bool.Type) throws -> Bool? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Date`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Date.Type) throws -> Date? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Data`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Data.Type) throws -> Data? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `UUID`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: UUID.Type) throws -> UUID? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `URL`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: URL.Type) throws -> URL? { try typedValue(forKey: key, as: type) }

    /// The value of the attribute `key` as `Decimal`, or `nil`; see `value(forKey:as:)`.
    public func value(forKey key: String, as type: Decimal.Type) throws -> Decimal? { try typedValue(forKey: key, as: type) }
}
