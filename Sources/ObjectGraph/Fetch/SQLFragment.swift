/// A piece of SQL with its `?` parameters: values are always bound, never spliced into the text.
///
/// `bindings` holds one value per `?`, in order. The SQLite layer binds each by its case,
/// following the storage mapping (decimals as text, dates as REAL seconds since the reference
/// date, UUIDs as 16-byte blobs, …), so the values here are already in the case that matches how
/// the compared column is stored.
package struct SQLFragment: Sendable, Equatable {
    package var sql: String
    package var bindings: [AttributeValue]
}
