import Foundation

/// The integrity check of a SQLite store: SQLite's own check of the file, then ObjectGraph's of
/// what SQLite cannot know (the metadata, references between objects, the entities of rows).
extension SQLiteStoreState {
    /// Every problem found on the writer's connection; `quick` runs SQLite's `quick_check`
    /// (no index content check, much faster on a large file) instead of `integrity_check`.
    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        var problems = try fileProblems(quick: quick)
        // A damaged file makes the checks below unreliable, and its reads may fail.
        guard problems.isEmpty else { return problems }
        do {
            let stored = try StoreMetadataRecord(readFrom: connection)
            if stored.modelHash != model.versionHash {
                problems.append(
                    .init(
                        kind: .metadata, entityName: nil,
                        message:
                            "the metadata records model '\(stored.modelName)' version \(stored.modelVersion) (hash \(stored.modelHash)), but the store is open with '\(model.name)' version \(model.version) (hash \(model.versionHash))"
                    ))
            }
        } catch let error as ObjectGraphError {
            problems.append(.init(kind: .metadata, entityName: nil, message: error.message))
        }
        problems += try wrongEntityProblems() + danglingReferenceProblems()
        return problems
    }

    /// SQLite's `integrity_check` (or `quick_check`) of the file: damage, not what the rows mean.
    func fileProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        let check = try connection.prepare("PRAGMA \(quick ? "quick_check" : "integrity_check")")
        while try check.step() {
            guard let line = check.text(at: 0), line != "ok" else { continue }
            problems.append(
                .init(
                    kind: .damagedFile, entityName: nil,
                    message: "SQLite's \(quick ? "quick_check" : "integrity_check") of \(connection.path): \(line)"))
        }
        return problems
    }

    /// Rows of a hierarchy's table whose `_entity` is not one of the hierarchy's entities.
    private func wrongEntityProblems() throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        for root in model.entities where model.root(of: root) === root && model.isInHierarchy(root) {
            let filter = TableLayout.entityFilter(model.kinds(of: root))
            let count = try scalar("SELECT count(*) FROM \(quoteIdentifier(root.name)) WHERE NOT (\(filter))")
            if count > 0 {
                problems.append(
                    .init(
                        kind: .wrongEntity, entityName: root.name,
                        message:
                            "\(count) \(count == 1 ? "row" : "rows") of the \(root.name) table \(count == 1 ? "names" : "name") an entity the table does not hold"
                    ))
            }
        }
        return problems
    }

    /// To-one keys and join-table pairs that refer to rows that do not exist (or rows of an
    /// entity the relationship cannot lead to).
    private func danglingReferenceProblems() throws -> [IntegrityReport.Problem] {
        var problems: [IntegrityReport.Problem] = []
        for reference in StoredReference.all(in: model, layout: relationshipLayout) {
            let count = try scalar("SELECT count(*) FROM \(reference.table) WHERE \(reference.danglingCondition)")
            guard count > 0 else { continue }
            let destination = reference.destination.name
            if let entity = reference.entity, let relationship = reference.relationship {
                problems.append(
                    .init(
                        kind: .danglingReference, entityName: entity.name,
                        message:
                            "\(count) \(entity.name) \(count == 1 ? "object refers" : "objects refer") through \(relationship.name) to \(destination) objects that do not exist"
                    ))
            } else if let table = reference.joinTable {
                problems.append(
                    .init(
                        kind: .danglingReference, entityName: destination,
                        message:
                            "\(count) \(count == 1 ? "pair of \(table.name) refers" : "pairs of \(table.name) refer") to \(destination) objects that do not exist"
                    ))
            }
        }
        return problems
    }

    private func scalar(_ sql: String) throws -> Int64 {
        let statement = try connection.prepare(sql)
        return try statement.step() ? statement.int64(at: 0) : 0
    }
}
