extension ManagedObjectModel {
    /// The most columns SQLite allows in a table (`SQLITE_MAX_COLUMN`'s default).
    static let maximumSQLiteColumns = 2_000

    /// The hierarchies whose table SQLite could not create, each with the column count its table
    /// would need (`_pk`, `_version`, `_entity` included). A model is refused at load when there
    /// is one, for every store, so that a model working in memory also works in a file.
    func sqliteTablesOverColumnLimit() -> [(root: EntityDescription, columns: Int)] {
        let relationshipLayout = RelationshipLayout(model: self)
        return entities.filter { root(of: $0) === $0 }.compactMap { root in
            let table = TableLayout(root: root, model: self, relationshipLayout: relationshipLayout)
            let columns = table.columns.count + (table.hasEntityColumn ? 3 : 2)
            return columns > Self.maximumSQLiteColumns ? (root, columns) : nil
        }
    }
}
