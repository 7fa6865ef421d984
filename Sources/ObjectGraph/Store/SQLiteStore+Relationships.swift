/// Relationships in the SQLite store, the writer's side: the join-table pairs and positions a
/// save writes (see `RelationshipLayout.write`; reading them is `SQLiteReader+Relationships.swift`).
extension SQLiteStoreState {
    /// Writes the pairs the owning sides of join tables gained and lost, then the positions of
    /// ordered relationships (once every pair exists).
    func applyRelationshipChanges(_ changes: [RelationshipChange], keys: SaveKeys) throws {
        try relationshipLayout.write(changes, keys: keys, tables: tables, dialect: SQLiteDialect(), run: run)
    }

    /// Runs a cached write statement with `bindings`, explaining a failure in terms of `objectID`.
    private func run(_ sql: String, _ bindings: [AttributeValue], for objectID: ManagedObjectID) throws {
        let statement = try connection.cachedStatement(sql)
        statement.reset()
        defer { statement.reset() }
        try statement.bind(bindings)
        _ = try statement.step(explainingFailure: {
            $0.error("Cannot save \(objectID.shortDescription)", entityName: objectID.entity.name, objectID: objectID)
        })
    }
}
