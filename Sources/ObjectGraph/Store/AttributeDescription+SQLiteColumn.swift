/// Where an attribute lives in its SQLite table: a column of its own name, except an entity's
/// `primaryKey`, which is the table's `"_pk"` (the rowid) itself.
extension AttributeDescription {
    package var columnName: String { isPrimaryKey ? StoreSchema.primaryKeyColumn : name }
}

extension EntityDescription {
    /// The column of the attribute named `name` (see `AttributeDescription.columnName`).
    func columnName(ofAttribute name: String) -> String {
        attribute(named: name)?.columnName ?? name
    }
}
