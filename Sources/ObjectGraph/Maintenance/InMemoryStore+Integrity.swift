/// The integrity check of an in-memory store: the references between its objects (the rest of
/// what the SQLite store checks — the file, the metadata, the entity of each row — an in-memory
/// store cannot get wrong).
extension InMemoryStore {
    func integrityProblems(quick: Bool) throws -> [IntegrityReport.Problem] {
        try state.withLock { state in
            try Self.checkOpen(state)
            /// Whether an object of `destination` (or of one of its sub-entities) has `key`.
            func exists(_ key: Int64, _ destination: EntityDescription) -> Bool {
                model.kinds(of: destination).contains { state.tables[$0.index].rows[key] != nil }
            }
            var problems: [IntegrityReport.Problem] = []
            for entity in model.entities {
                for relationship in entity.ownRelationships where relationship.isToOne {
                    let destination = model.entities[relationship.destinationIndex]
                    let count = model.kinds(of: entity).reduce(0) { total, kind in
                        total
                            + state.tables[kind.index].rows.values.filter { row in
                                guard case .object(let objectID) = row.values[relationship.slot], let key = objectID.primaryKey else {
                                    return false
                                }
                                return !exists(key, destination)
                            }.count
                    }
                    if count > 0 {
                        problems.append(
                            .init(
                                kind: .danglingReference, entityName: entity.name,
                                message:
                                    "\(count) \(entity.name) \(count == 1 ? "object refers" : "objects refer") through \(relationship.name) to \(destination.name) objects that do not exist"
                            ))
                    }
                }
            }
            for table in relationshipLayout.joinTables {
                let pairs = state.joins[table.name]?.pairs ?? []
                for (side, entityIndex) in [
                    (\JoinRows.Pair.source, table.sourceEntityIndex), (\JoinRows.Pair.destination, table.destinationEntityIndex)
                ] {
                    let destination = model.entities[entityIndex]
                    let count = pairs.filter { !exists($0[keyPath: side], destination) }.count
                    if count > 0 {
                        problems.append(
                            .init(
                                kind: .danglingReference, entityName: destination.name,
                                message:
                                    "\(count) \(count == 1 ? "pair of \(table.name) refers" : "pairs of \(table.name) refer") to \(destination.name) objects that do not exist"
                            ))
                    }
                }
            }
            return problems
        }
    }
}
