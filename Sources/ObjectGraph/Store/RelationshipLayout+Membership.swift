/// Reading a to-many relationship's members, in any SQL store (see `RelationshipStorage`).
extension RelationshipLayout {
    /// The text of the membership query of `relationship` of `entity`, in any SQL store: owner
    /// key, destination key (and the destination's entity for a shared table) of the owners
    /// `filter` selects (`= ?`, `IN (…)`), ordered by owner (then position, then key).
    package static func membershipSQL(
        of relationship: RelationshipDescription, in entity: EntityDescription, layout: RelationshipLayout,
        destinationTable: StoreTable, filter: String
    ) throws -> String {
        let sharedDestination = destinationTable.kindsFilter != nil
        switch layout[relationship, of: entity] {
        case .foreignKey:
            throw ObjectGraphError(
                .invalidOperation, "\(entity.name).\(relationship.name) is a to-one relationship", entityName: entity.name,
                key: relationship.name)
        case .inverseForeignKey(let inverse, let positionColumn):
            let own = quoteIdentifier(inverse.name)
            let key = quoteIdentifier(StoreSchema.primaryKeyColumn)
            let selected = [own, key] + (sharedDestination ? [quoteIdentifier(TableLayout.entityColumn)] : [])
            let order = [own] + (positionColumn.map { [quoteIdentifier($0)] } ?? []) + [key]
            return
                "SELECT \(selected.joined(separator: ", ")) FROM \(destinationTable.quotedName) WHERE \(own) \(filter) ORDER BY \(order.joined(separator: ", "))"
        case .joinTable(let table, let side):
            let columns = table.columns(for: side)
            let own = "j.\(quoteIdentifier(columns.own))"
            let other = "j.\(quoteIdentifier(columns.other))"
            let selected = [own, other] + (sharedDestination ? ["d.\(quoteIdentifier(TableLayout.entityColumn))"] : [])
            let join =
                sharedDestination
                ? " JOIN \(destinationTable.quotedName) AS d ON d.\(quoteIdentifier(StoreSchema.primaryKeyColumn)) = \(other)" : ""
            let order = [own] + (columns.position.map { ["j.\(quoteIdentifier($0))"] } ?? []) + [other]
            return
                "SELECT \(selected.joined(separator: ", ")) FROM \(quoteIdentifier(table.name)) AS j\(join) WHERE \(own) \(filter) ORDER BY \(order.joined(separator: ", "))"
        }
    }
}
