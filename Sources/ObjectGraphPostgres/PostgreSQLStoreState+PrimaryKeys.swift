import ObjectGraph
import PostgresNIO

/// Primary keys: counted per hierarchy in `_objectgraph_primary_keys`, as the SQLite store counts
/// them, but taken from the table itself in the transaction that uses them (the row is locked
/// until it ends), since other processes hand out keys from the same database: no key is ever
/// handed out twice, and a failed save gives its keys back with everything else.
extension PostgreSQLStoreState {
    /// The key of each insert, and those given to inserts with temporary IDs, in insert order.
    func primaryKeys(for inserts: SaveRequest.Inserts) throws -> (rowKeys: [Int64], assigned: [Int64]) {
        var needed: [Int: Int] = [:]
        var obtained: [Int: Int64] = [:]
        for insert in inserts {
            // A hierarchy shares its root's table, and so its keys.
            let root = model.rootIndexes[insert.objectID.entity.index]
            if let permanent = insert.objectID.primaryKey {
                obtained[root] = max(obtained[root] ?? 0, permanent)
            } else if try PrimaryKeyRule.declaredKey(in: insert.values, of: insert.objectID) == nil {
                needed[root, default: 0] += 1
            }
        }
        // Keys obtained in advance were reserved; this only guards against any that were not.
        for (root, highest) in obtained {
            try connection.execute(
                "\(upsertCounter) SET \"max_key\" = GREATEST(\(counterTable).\"max_key\", EXCLUDED.\"max_key\")",
                [.string(model.entities[root].name), .integer(highest)])
        }
        var next: [Int: Int64] = [:]
        for (root, count) in needed {
            next[root] = try take(count, forRoot: root)
        }
        var rowKeys: [Int64] = []
        var assigned: [Int64] = []
        rowKeys.reserveCapacity(inserts.count)
        for insert in inserts {
            if let permanent = insert.objectID.primaryKey {
                rowKeys.append(permanent)
            } else if let declared = try PrimaryKeyRule.declaredKey(in: insert.values, of: insert.objectID) {
                rowKeys.append(declared)
                assigned.append(declared)
            } else {
                let root = model.rootIndexes[insert.objectID.entity.index]
                let key = next[root]!
                next[root] = key + 1
                rowKeys.append(key)
                assigned.append(key)
            }
        }
        return (rowKeys, assigned)
    }

    /// Reserves `count` keys for `entity` in a transaction of their own.
    func reservePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        _ = try table(for: entity)
        guard count > 0 else { return [] }
        let first = try connection.transaction { try take(count, forRoot: model.rootIndexes[entity.index]) }
        return Array(first..<first + Int64(count))
    }

    /// Counts `count` keys of the hierarchy of the entity at `root` as handed out, inside the
    /// caller's transaction; returns the first.
    private func take(_ count: Int, forRoot root: Int) throws -> Int64 {
        let name = model.entities[root].name
        let result = try connection.execute(
            "\(upsertCounter) SET \"max_key\" = \(counterTable).\"max_key\" + EXCLUDED.\"max_key\" RETURNING \"max_key\"",
            [.string(name), .integer(Int64(count))])
        let last = try result.rows[0][0].decode(Int64.self)
        guard last > 0 else {
            throw ObjectGraphError(
                .invalidOperation, "\(name) has used every primary key up to \(Int64.max); no more can be handed out", entityName: name)
        }
        return last - Int64(count) + 1
    }

    private var counterTable: String { quoteIdentifier(StoreSchema.primaryKeysTable) }

    /// `INSERT` of (entity, $2) into the counters, updating the entity's row when there is one.
    private var upsertCounter: String {
        "INSERT INTO \(counterTable) (\"entity\", \"max_key\") VALUES ($1, $2) ON CONFLICT (\"entity\") DO UPDATE"
    }
}
