import ObjectGraph

/// A connection that reads the store (fetches, counts, rows by key, relationships, groups, the
/// integrity check; see PostgreSQLReading+Fetch and the files beside it) with the store's
/// shared, immutable tables. Two kinds read: the writer's state, whose reads inside a save or a
/// batch request see its open transaction, and the readers of `PostgreSQLReaderPool`, which
/// serve the store's public reads beside a save and beside each other.
protocol PostgreSQLReading {
    /// The connection the reads run on, used by one thread at a time.
    var connection: PostgreSQLConnection { get }
    var schema: PostgreSQLStoreTables { get }
}

extension PostgreSQLReading {
    var model: ManagedObjectModel { schema.model }
    /// The store's ID space of each entity, by entity index.
    var idSpaces: [ObjectIDSpace] { schema.idSpaces }
    /// Where each relationship lives.
    var relationshipLayout: RelationshipLayout { schema.relationshipLayout }
    /// Each entity's table, by entity index (see `PostgreSQLStoreTables.tables`).
    var tables: [StoreTable] { schema.tables }
    var dialect: PostgreSQLDialect { schema.dialect }

    /// The table of `entity`, which must belong to the store's model.
    func table(for entity: EntityDescription) throws -> StoreTable {
        guard entity.index < tables.count, tables[entity.index].entity === entity else {
            throw ObjectGraphError(
                .invalidOperation, "The entity \(entity.name) does not belong to the model of the store at \(schema.location)",
                entityName: entity.name)
        }
        return tables[entity.index]
    }
}
