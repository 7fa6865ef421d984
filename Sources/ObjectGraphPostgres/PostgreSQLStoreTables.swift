import ObjectGraph

/// What reading and writing a PostgreSQL store need from its model, made once when the store
/// opens and never changed after: each entity's table, where relationships live, the dialect
/// the predicate compiler writes in. Shared by the writer's state and every reader of the pool
/// (see `PostgreSQLReading`).
struct PostgreSQLStoreTables: @unchecked Sendable {
    // Why @unchecked Sendable is sound: `location`, `model`, `idSpaces`, `relationshipLayout`
    // and `dialect` are Sendable values. The tables are `StoreTable` classes whose members are
    // immutable `let`s (SQL text, row decoders) except the SQLite writer's prepared INSERT,
    // which the PostgreSQL store never touches. So threads sharing these tables only ever read
    // memory no one writes.

    /// The database, for messages.
    let location: PostgreSQLLocation
    let model: ManagedObjectModel
    /// The store's ID space of each entity, by entity index.
    let idSpaces: [ObjectIDSpace]
    /// Where each relationship lives.
    let relationshipLayout: RelationshipLayout
    /// Each entity's view of its table (shared with the SQLite store: SQL of the reads, how
    /// result columns map to value-row slots, the columns writes set), by entity index.
    let tables: [StoreTable]
    let dialect: PostgreSQLDialect

    init(model: ManagedObjectModel, storeIdentifier: String, location: PostgreSQLLocation) {
        self.location = location
        self.model = model
        let idSpaces = ObjectIDSpace.spaces(for: model, storeIdentifier: storeIdentifier)
        self.idSpaces = idSpaces
        let relationshipLayout = RelationshipLayout(model: model)
        self.relationshipLayout = relationshipLayout
        let layouts = Dictionary(
            uniqueKeysWithValues: model.entities.filter { model.root(of: $0) === $0 }.map {
                ($0.index, TableLayout(root: $0, model: model, relationshipLayout: relationshipLayout, separatingTypes: true))
            })
        dialect = PostgreSQLDialect(
            renamedColumns: layouts.values.reduce(into: [:]) { $0.merge($1.attributeColumns) { first, _ in first } })
        tables = model.entities.map { entity in
            StoreTable(
                entity: entity, layout: layouts[model.rootIndexes[entity.index]]!, isStrict: false, model: model, idSpaces: idSpaces)
        }
    }
}
