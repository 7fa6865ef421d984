extension ManagedObjectModel {
    /// The SQL statements that create this model's SQLite store schema, in the order they run.
    ///
    /// One STRICT table per entity (named after it, with `_pk` and `_version` columns first and a
    /// column per stored attribute), the unique indexes of its uniqueness constraints, the indexes
    /// of indexed attributes and compound indexes, then the store's metadata and primary-key
    /// tables. Each statement is complete, without a trailing semicolon, and idempotent
    /// (`IF NOT EXISTS`). `objectgraph schema` prints them.
    public func sqliteSchema() -> [String] {
        StoreSchema.statements(for: self)
    }
}
