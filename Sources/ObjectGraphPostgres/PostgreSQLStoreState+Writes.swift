import ObjectGraph

/// Relationships, the writing side: the pairs and positions of a save's to-many changes, written
/// by the statements every SQL store runs (`RelationshipLayout.write`).
extension PostgreSQLStoreState {
    func applyRelationshipChanges(_ changes: [RelationshipChange], keys: SaveKeys) throws {
        try relationshipLayout.write(changes, keys: keys, tables: tables, dialect: dialect) { sql, bindings, objectID in
            try write(sql, bindings, for: objectID)
        }
    }
}
