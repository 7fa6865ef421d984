/// Relationships in the SQLite store, the writer's side: the join-table pairs and positions a
/// save writes (see `RelationshipStorage`; reading them is `SQLiteReader+Relationships.swift`).
extension SQLiteStoreState {
    /// Writes the pairs the owning sides of join tables gained and lost, then the positions of
    /// ordered relationships (once every pair exists).
    func applyRelationshipChanges(_ changes: [RelationshipChange], keys: SaveKeys) throws {
        for change in changes {
            guard case .joinTable(let table, .source) = relationshipLayout[change.relationship, of: change.objectID.entity] else { continue }
            let own = try keys.key(of: change.objectID, referencedBy: change.objectID, through: change.relationship.name)
            let name = quoteIdentifier(table.name)
            let (source, destination) = (quoteIdentifier(JoinTable.sourceColumn), quoteIdentifier(JoinTable.destinationColumn))
            for removed in change.removed {
                let other = try keys.key(of: removed, referencedBy: change.objectID, through: change.relationship.name)
                try run("DELETE FROM \(name) WHERE \(source) = ? AND \(destination) = ?", [.integer(own), .integer(other)], for: change.objectID)
            }
            for added in change.added {
                let other = try keys.key(of: added, referencedBy: change.objectID, through: change.relationship.name)
                try run("INSERT OR IGNORE INTO \(name) (\(source), \(destination)) VALUES (?, ?)", [.integer(own), .integer(other)], for: change.objectID)
            }
        }
        for change in changes {
            guard let order = change.order else { continue }
            let own = try keys.key(of: change.objectID, referencedBy: change.objectID, through: change.relationship.name)
            let sql: String
            switch relationshipLayout[change.relationship, of: change.objectID.entity] {
            case .inverseForeignKey(let inverse, let positionColumn?):
                let destination = tables[change.relationship.destinationIndex].quotedName
                sql = "UPDATE \(destination) SET \(quoteIdentifier(positionColumn)) = ? WHERE \(quoteIdentifier(SQLiteSchema.primaryKeyColumn)) = ? AND \(quoteIdentifier(inverse.name)) = ?"
            case .joinTable(let table, let side):
                let columns = table.columns(for: side)
                guard let position = columns.position else { continue }
                sql = "UPDATE \(quoteIdentifier(table.name)) SET \(quoteIdentifier(position)) = ? WHERE \(quoteIdentifier(columns.other)) = ? AND \(quoteIdentifier(columns.own)) = ?"
            default:
                continue
            }
            for (position, member) in order.enumerated() {
                let other = try keys.key(of: member, referencedBy: change.objectID, through: change.relationship.name)
                try run(sql, [.integer(Int64(position)), .integer(other), .integer(own)], for: change.objectID)
            }
        }
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
