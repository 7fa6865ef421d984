/// What every connection of an open store reads with: the model, the ID spaces, where each
/// relationship lives and each entity's table. Worked out once when the store opens and shared
/// by the writer and its readers.
struct SQLiteStoreTables: @unchecked Sendable {
    // Why @unchecked Sendable is sound: `model`, `idSpaces`, `relationshipLayout` and `path` are
    // Sendable values. The tables are classes whose members are immutable `let`s (SQL text,
    // row decoders) except the writer's prepared INSERT, which only the writer touches, on the
    // store's serial queue; readers use the immutable members only. So threads sharing these
    // tables never write memory another one reads.

    /// The database file's path, for messages.
    let path: String
    let model: ManagedObjectModel
    /// The store's ID space of each entity, by entity index.
    let idSpaces: [ObjectIDSpace]
    /// Where each relationship lives.
    let relationshipLayout: RelationshipLayout
    /// One per entity, by entity index.
    let tables: [StoreTable]

    /// The table of `entity`, which must belong to the store's model.
    func table(for entity: EntityDescription) throws -> StoreTable {
        guard entity.index < tables.count, tables[entity.index].entity === entity else {
            throw ObjectGraphError(
                .invalidOperation,
                "The entity \(entity.name) does not belong to the model of the store at \(path)",
                entityName: entity.name)
        }
        return tables[entity.index]
    }
}
