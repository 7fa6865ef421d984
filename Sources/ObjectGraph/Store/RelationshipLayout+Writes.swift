/// The statements a save runs for its to-many changes, in any SQL store (see
/// `RelationshipStorage`): the pairs the owning sides of join tables gained and lost, then the
/// positions of ordered relationships (once every pair exists).
extension RelationshipLayout {
    /// Runs, through `run` (SQL, bindings, the object whose change it is), every statement that
    /// writes `changes`, in `dialect`; `tables` are the entities' tables, by entity index.
    package func write<Dialect: SQLDialect>(
        _ changes: [RelationshipChange], keys: SaveKeys, tables: [StoreTable], dialect: Dialect,
        run: (String, [AttributeValue], ManagedObjectID) throws -> Void
    ) throws {
        let (first, second, third) = (dialect.placeholder(1), dialect.placeholder(2), dialect.placeholder(3))
        for change in changes {
            guard case .joinTable(let table, .source) = self[change.relationship, of: change.objectID.entity] else { continue }
            let own = try keys.key(of: change.objectID, referencedBy: change.objectID, through: change.relationship.name)
            let name = quoteIdentifier(table.name)
            let (source, destination) = (quoteIdentifier(JoinTable.sourceColumn), quoteIdentifier(JoinTable.destinationColumn))
            for removed in change.removed {
                let other = try keys.key(of: removed, referencedBy: change.objectID, through: change.relationship.name)
                try run(
                    "DELETE FROM \(name) WHERE \(source) = \(first) AND \(destination) = \(second)", [.integer(own), .integer(other)],
                    change.objectID)
            }
            for added in change.added {
                let other = try keys.key(of: added, referencedBy: change.objectID, through: change.relationship.name)
                try run(
                    dialect.insertIgnoringDuplicates(into: name, columns: [source, destination]), [.integer(own), .integer(other)],
                    change.objectID)
            }
        }
        for change in changes {
            guard let order = change.order else { continue }
            let own = try keys.key(of: change.objectID, referencedBy: change.objectID, through: change.relationship.name)
            let sql: String
            switch self[change.relationship, of: change.objectID.entity] {
            case .inverseForeignKey(let inverse, let positionColumn?):
                let destination = tables[change.relationship.destinationIndex].quotedName
                sql =
                    "UPDATE \(destination) SET \(quoteIdentifier(positionColumn)) = \(first) WHERE \(quoteIdentifier(StoreSchema.primaryKeyColumn)) = \(second) AND \(quoteIdentifier(inverse.name)) = \(third)"
            case .joinTable(let table, let side):
                let columns = table.columns(for: side)
                guard let position = columns.position else { continue }
                sql =
                    "UPDATE \(quoteIdentifier(table.name)) SET \(quoteIdentifier(position)) = \(first) WHERE \(quoteIdentifier(columns.other)) = \(second) AND \(quoteIdentifier(columns.own)) = \(third)"
            default:
                continue
            }
            for (position, member) in order.enumerated() {
                let other = try keys.key(of: member, referencedBy: change.objectID, through: change.relationship.name)
                try run(sql, [.integer(Int64(position)), .integer(other), .integer(own)], change.objectID)
            }
        }
    }
}
