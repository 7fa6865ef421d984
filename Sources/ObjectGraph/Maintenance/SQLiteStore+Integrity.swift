import Foundation

/// The integrity check of a SQLite store: SQLite's own check of the file, then ObjectGraph's of
/// what SQLite cannot know (the metadata, references between objects, the entities of rows).
extension SQLiteStoreState {
    /// Every problem found on the writer's connection; `quick` runs SQLite's `quick_check`
    /// (no index content check, much faster on a large file) instead of `integrity_check`.
    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        let check = try connection.prepare("PRAGMA \(quick ? "quick_check" : "integrity_check")")
        while try check.step() {
            guard let line = check.text(at: 0), line != "ok" else { continue }
            problems.append(.init(kind: .damagedFile, entityName: nil, message: "SQLite's \(quick ? "quick_check" : "integrity_check") of \(connection.path): \(line)"))
        }
        // A damaged file makes the checks below unreliable, and its reads may fail.
        guard problems.isEmpty else { return problems }
        do {
            let stored = try SQLiteStoreMetadata(readFrom: connection)
            if stored.modelHash != model.versionHash {
                problems.append(.init(kind: .metadata, entityName: nil, message: "the metadata records model '\(stored.modelName)' version \(stored.modelVersion) (hash \(stored.modelHash)), but the store is open with '\(model.name)' version \(model.version) (hash \(model.versionHash))"))
            }
        } catch let error as ObjectGraphError {
            problems.append(.init(kind: .metadata, entityName: nil, message: error.message))
        }
        problems += try wrongEntityProblems() + danglingReferenceProblems()
        return problems
    }

    /// Rows of a hierarchy's table whose `_entity` is not one of the hierarchy's entities.
    private func wrongEntityProblems() throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        for root in model.entities where model.root(of: root) === root && model.isInHierarchy(root) {
            let filter = SQLiteTableLayout.entityFilter(model.kinds(of: root))
            let count = try scalar("SELECT count(*) FROM \(quoteIdentifier(root.name)) WHERE NOT (\(filter))")
            if count > 0 {
                problems.append(.init(kind: .wrongEntity, entityName: root.name, message: "\(count) \(count == 1 ? "row" : "rows") of the \(root.name) table \(count == 1 ? "names" : "name") an entity the table does not hold"))
            }
        }
        return problems
    }

    /// To-one keys and join-table pairs that refer to rows that do not exist (or rows of an
    /// entity the relationship cannot lead to).
    private func danglingReferenceProblems() throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        let key = quoteIdentifier(SQLiteSchema.primaryKeyColumn)
        /// `column IS NOT NULL AND column NOT IN (the keys of destination's objects)`.
        func dangling(_ column: String, to destination: EntityDescription) -> String {
            let root = model.root(of: destination)
            let kinds = model.isInHierarchy(root) ? " WHERE \(SQLiteTableLayout.entityFilter(model.kinds(of: destination)))" : ""
            return "\(column) IS NOT NULL AND \(column) NOT IN (SELECT \(key) FROM \(quoteIdentifier(root.name))\(kinds))"
        }
        for entity in model.entities {
            for relationship in entity.ownRelationships where relationship.isToOne {
                let destination = model.entities[relationship.destinationIndex]
                let rows = model.isInHierarchy(entity) ? "(\(SQLiteTableLayout.entityFilter(model.kinds(of: entity)))) AND " : ""
                let count = try scalar("SELECT count(*) FROM \(quoteIdentifier(model.root(of: entity).name)) WHERE \(rows)\(dangling(quoteIdentifier(relationship.name), to: destination))")
                if count > 0 {
                    problems.append(.init(kind: .danglingReference, entityName: entity.name, message: "\(count) \(entity.name) \(count == 1 ? "object refers" : "objects refer") through \(relationship.name) to \(destination.name) objects that do not exist"))
                }
            }
        }
        for table in relationshipLayout.joinTables {
            for (column, entityIndex) in [(JoinTable.sourceColumn, table.sourceEntityIndex), (JoinTable.destinationColumn, table.destinationEntityIndex)] {
                let destination = model.entities[entityIndex]
                let count = try scalar("SELECT count(*) FROM \(quoteIdentifier(table.name)) WHERE \(dangling(quoteIdentifier(column), to: destination))")
                if count > 0 {
                    problems.append(.init(kind: .danglingReference, entityName: destination.name, message: "\(count) \(count == 1 ? "pair of \(table.name) refers" : "pairs of \(table.name) refer") to \(destination.name) objects that do not exist"))
                }
            }
        }
        return problems
    }

    private func scalar(_ sql: String) throws -> Int64 {
        let statement = try connection.prepare(sql)
        return try statement.step() ? statement.int64(at: 0) : 0
    }
}
