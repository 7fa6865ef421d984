/// A column of a SQLite store that refers from one row to another: a to-one relationship's
/// foreign key, or one side of a join table. The integrity check counts the references that
/// dangle (point at no row, or at a row of an entity the relationship cannot lead to); salvage
/// clears them.
struct StoredReference {
    /// The table holding the column, quoted.
    let table: String
    /// The referring column, quoted.
    let column: String
    /// Where a to-one's relationship is declared (nil for a join table).
    let entity: EntityDescription?
    let relationship: RelationshipDescription?
    /// The join table of a to-many (nil for a to-one).
    let joinTable: JoinTable?
    /// The entity the reference leads to.
    let destination: EntityDescription
    /// The SQL condition true for the rows of `table` whose reference in `column` dangles.
    let danglingCondition: String

    /// Every reference column of `model`'s schema: to-one keys, then join-table sides.
    static func all(in model: ManagedObjectModel, layout: RelationshipLayout) -> [StoredReference] {
        let key = quoteIdentifier(StoreSchema.primaryKeyColumn)
        func dangling(_ column: String, to destination: EntityDescription) -> String {
            let root = model.root(of: destination)
            let kinds = model.isInHierarchy(root) ? " WHERE \(TableLayout.entityFilter(model.kinds(of: destination)))" : ""
            return "\(column) IS NOT NULL AND \(column) NOT IN (SELECT \(key) FROM \(quoteIdentifier(root.name))\(kinds))"
        }
        var references: [StoredReference] = []
        for entity in model.entities {
            for relationship in entity.ownRelationships where relationship.isToOne {
                let destination = model.entities[relationship.destinationIndex]
                let rows = model.isInHierarchy(entity) ? "(\(TableLayout.entityFilter(model.kinds(of: entity)))) AND " : ""
                let column = quoteIdentifier(relationship.name)
                references.append(
                    StoredReference(
                        table: quoteIdentifier(model.root(of: entity).name), column: column, entity: entity, relationship: relationship,
                        joinTable: nil, destination: destination, danglingCondition: rows + dangling(column, to: destination)))
            }
        }
        for table in layout.joinTables {
            for (column, entityIndex) in [
                (JoinTable.sourceColumn, table.sourceEntityIndex), (JoinTable.destinationColumn, table.destinationEntityIndex)
            ] {
                let destination = model.entities[entityIndex]
                let quoted = quoteIdentifier(column)
                references.append(
                    StoredReference(
                        table: quoteIdentifier(table.name), column: quoted, entity: nil, relationship: nil, joinTable: table,
                        destination: destination, danglingCondition: dangling(quoted, to: destination)))
            }
        }
        return references
    }
}
