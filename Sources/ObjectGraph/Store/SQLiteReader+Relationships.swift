import CSQLite

/// Relationships in the SQLite store, the reading side: to-many destinations read by foreign key
/// or join table (see `RelationshipStorage`).
extension SQLiteReader {
    func relatedObjectIDs(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [ManagedObjectID]] {
        guard !sources.isEmpty else { return [:] }
        _ = try table(for: entity)
        // A destination in a table shared by a hierarchy: each row names its entity.
        let destinationTable = tables[relationship.destinationIndex]
        let sharedDestination = destinationTable.kindsFilter != nil
        let query = MembershipQuery(relationship: relationship.index, entity: entity.index, takesKeyList: sources.count > 1)
        let statement =
            try membershipStatements[query]
            ?? connection.prepare(
                RelationshipLayout.membershipSQL(
                    of: relationship, in: entity, layout: relationshipLayout, destinationTable: destinationTable,
                    filter: query.takesKeyList ? "IN (SELECT value FROM json_each(?))" : "= ?"),
                flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        membershipStatements[query] = statement
        statement.reset()
        defer { statement.reset() }
        try bind(sources, to: statement)
        let destination = model.entities[relationship.destinationIndex]
        var related = OwnerGroups<ManagedObjectID>()
        while try statement.step() {
            let key = statement.int64(at: 1)
            guard key > 0 else {
                throw ObjectGraphError(
                    .corruptStore,
                    "The store is damaged: \(entity.name).\(relationship.name) refers to a \(destination.name) with key \(key); keys start at 1",
                    entityName: entity.name, key: relationship.name)
            }
            var space = idSpaces[destination.index]
            if sharedDestination {
                let name = statement.textValue(at: 2)
                guard let kind = model.entity(named: name), model.entity(kind, isKindOf: destination) else {
                    throw ObjectGraphError(
                        .corruptStore,
                        "The store is damaged: \(entity.name).\(relationship.name) refers to row \(key) of entity '\(name)', which is not a \(destination.name)",
                        entityName: entity.name, key: relationship.name)
                }
                space = idSpaces[kind.index]
            }
            related.append(ManagedObjectID(space: space, primaryKey: key), owner: statement.int64(at: 0))
        }
        return related.finished()
    }

    /// The destinations with their rows: for a to-many kept through its inverse's foreign key, one
    /// SELECT of the destination rows by that key (membership and rows at once); otherwise the
    /// keys first, then the rows.
    func relatedSnapshots(
        of relationship: RelationshipDescription, in entity: EntityDescription, sources: [Int64]
    ) throws -> [Int64: [Snapshot]] {
        guard !sources.isEmpty else { return [:] }
        _ = try table(for: entity)
        guard case .inverseForeignKey(let inverse, let positionColumn) = relationshipLayout[relationship, of: entity] else {
            // Several statements: one read transaction, so the rows match the memberships.
            return try connection.readTransaction {
                let related = try relatedObjectIDs(of: relationship, in: entity, sources: sources)
                var rows: [Int: [Int64: Snapshot]] = [:]
                for (entityIndex, objectIDs) in Dictionary(grouping: related.values.joined(), by: { $0.entity.index }) {
                    rows[entityIndex] = try snapshots(of: model.entities[entityIndex], primaryKeys: objectIDs.map { $0.primaryKey! })
                }
                return related.mapValues { $0.compactMap { rows[$0.entity.index]?[$0.primaryKey!] } }
            }
        }
        let destination = tables[relationship.destinationIndex]
        let own = quoteIdentifier(inverse.name)
        // Sources that are most of their table (a prefetch after fetching every author): one scan
        // of the destination table in key order, owners matched here, is the cheapest read —
        // looking each owner up through the index visits the same rows at random.
        let scannedOwners = positionColumn == nil ? try ownersWorthAScan(sources, of: entity) : nil
        let filter =
            scannedOwners != nil ? "\(own) IS NOT NULL" : sources.count > 1 ? "\(own) IN (SELECT value FROM json_each(?))" : "\(own) = ?"
        let conditions = (destination.kindsFilter.map { [$0] } ?? []) + [filter]
        let order =
            scannedOwners != nil
            ? ""
            : " ORDER BY "
                + ([own] + (positionColumn.map { [quoteIdentifier($0)] } ?? []) + [quoteIdentifier(StoreSchema.primaryKeyColumn)]).joined(
                    separator: ", ")
        let statement = try connection.cachedStatement("\(destination.selectPrefix) WHERE \(conditions.joined(separator: " AND "))\(order)")
        statement.reset()
        defer { statement.reset() }
        if scannedOwners == nil { try bind(sources, to: statement) }
        var related = OwnerGroups<Snapshot>()
        while try statement.step() {
            let row = try destination.snapshot(from: statement)
            // The inverse keeps its position in every sub-entity; its slot follows the row's entity.
            let slot = model.entities[row.entityIndex].relationships[inverse.index].slot
            guard case .object(let rowOwner) = row.values[slot], let key = rowOwner.primaryKey else { continue }
            if let scannedOwners, !(key < scannedOwners.count && scannedOwners[Int(key)]) { continue }
            related.append(row, owner: key)
        }
        return related.finished()
    }

    /// The owners `sources` as flags by key, when they are at least half of `entity`'s table's
    /// key range and many: then scanning the destination table beats looking each owner up.
    private func ownersWorthAScan(_ sources: [Int64], of entity: EntityDescription) throws -> [Bool]? {
        guard sources.count >= Self.scanMinimumSources else { return nil }
        let table = try table(for: entity)
        let statement = try connection.cachedStatement(
            "SELECT max(\(quoteIdentifier(StoreSchema.primaryKeyColumn))) FROM \(table.quotedName)")
        statement.reset()
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let maximum = statement.int64(at: 0)
        guard maximum > 0, maximum <= 2 * Int64(sources.count) else { return nil }
        // From 0, so that the flags are indexed by key; no row has key 0.
        return Self.keyFlags(sources, in: 0...maximum)
    }

    /// The fewest sources for which `ownersWorthAScan` considers a scan, and the fewest keys for
    /// which `denseKeys` does.
    static let scanMinimumSources = 512

    /// Binds the source keys to parameter 1: the key itself for one (`= ?`), a JSON array for
    /// several (`IN (SELECT value FROM json_each(?))`).
    private func bind(_ sources: [Int64], to statement: SQLiteStatement) throws {
        if sources.count == 1 {
            try statement.bind(.integer(sources[0]), at: 1)
        } else {
            try statement.bind(.string("[" + sources.map(String.init).joined(separator: ",") + "]"), at: 1)
        }
    }
}
