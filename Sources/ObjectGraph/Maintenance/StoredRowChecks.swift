/// The integrity checks both SQL stores (SQLite and PostgreSQL) run on what their database
/// cannot check for them: the metadata, rows naming an entity their table does not hold, and
/// references to objects that do not exist. The SQL is the same in both dialects; each store
/// runs it through its own connection.
package struct StoredRowChecks {
    let model: ManagedObjectModel
    let layout: RelationshipLayout

    package init(model: ManagedObjectModel, layout: RelationshipLayout) {
        self.model = model
        self.layout = layout
    }

    /// The problem with the metadata `read` returns: unreadable (`read` threw an
    /// `ObjectGraphError`), or recording another model than `model`.
    package func metadataProblems(_ read: () throws -> StoreMetadataRecord) rethrows -> [IntegrityReport.Problem] {
        do {
            let stored = try read()
            guard stored.modelHash != model.versionHash else { return [] }
            return [
                .init(
                    kind: .metadata, entityName: nil,
                    message:
                        "the metadata records model '\(stored.modelName)' version \(stored.modelVersion) (hash \(stored.modelHash)), but the store is open with '\(model.name)' version \(model.version) (hash \(model.versionHash))"
                )
            ]
        } catch let error as ObjectGraphError {
            return [.init(kind: .metadata, entityName: nil, message: error.message)]
        }
    }

    /// Rows naming a foreign entity, then dangling references; `count` runs a `SELECT count(*)`
    /// and returns its number.
    package func rowProblems(count: (String) throws -> Int64) throws -> [IntegrityReport.Problem] {
        try wrongEntityProblems(count: count) + danglingReferenceProblems(count: count)
    }

    /// Rows of a hierarchy's table whose `_entity` is not one of the hierarchy's entities.
    private func wrongEntityProblems(count: (String) throws -> Int64) throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        for root in model.entities where model.root(of: root) === root && model.isInHierarchy(root) {
            let filter = TableLayout.entityFilter(model.kinds(of: root))
            let found = try count("SELECT count(*) FROM \(quoteIdentifier(root.name)) WHERE NOT (\(filter))")
            if found > 0 {
                problems.append(
                    .init(
                        kind: .wrongEntity, entityName: root.name,
                        message:
                            "\(found) \(found == 1 ? "row" : "rows") of the \(root.name) table \(found == 1 ? "names" : "name") an entity the table does not hold"
                    ))
            }
        }
        return problems
    }

    /// To-one keys and join-table pairs that refer to rows that do not exist (or rows of an
    /// entity the relationship cannot lead to).
    private func danglingReferenceProblems(count: (String) throws -> Int64) throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        for reference in StoredReference.all(in: model, layout: layout) {
            let found = try count("SELECT count(*) FROM \(reference.table) WHERE \(reference.danglingCondition)")
            guard found > 0 else { continue }
            let destination = reference.destination.name
            if let entity = reference.entity, let relationship = reference.relationship {
                problems.append(
                    .init(
                        kind: .danglingReference, entityName: entity.name,
                        message:
                            "\(found) \(entity.name) \(found == 1 ? "object refers" : "objects refer") through \(relationship.name) to \(destination) objects that do not exist"
                    ))
            } else if let table = reference.joinTable {
                problems.append(
                    .init(
                        kind: .danglingReference, entityName: destination,
                        message:
                            "\(found) \(found == 1 ? "pair of \(table.name) refers" : "pairs of \(table.name) refer") to \(destination) objects that do not exist"
                    ))
            }
        }
        return problems
    }
}
