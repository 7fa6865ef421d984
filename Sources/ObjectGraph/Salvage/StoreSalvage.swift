import CSQLite
import Foundation

/// Salvage of a damaged SQLite store into a new one. SQLite is not asked to read the damaged file
/// at all: its pages are read directly (`DatabaseImage`, `BTreeReader`), so a damaged header,
/// schema page, interior page or index costs only what it holds. The steps:
/// 1. the schema (page 1's tree) for each table's root page and columns;
/// 2. the metadata, for the model that wrote the store and the store's identifier;
/// 3. every table's tree from its root, each record tested against the model (`SalvageTable`);
/// 4. leaf pages no tree claimed (cut off by a damaged parent, or the tables of a file whose
///    schema is lost) given to the one table whose rows they hold;
/// 5. a new store of the model, written in one transaction beside the target and renamed into
///    place: rows by key, indexes built fresh, references to lost objects cleared.
struct StoreSalvage {
    let damagedPath: String
    let targetPath: String
    let givenModel: ManagedObjectModel?
    let progress: (@Sendable (SalvageProgress) -> Void)?

    private typealias Entry = BTreeReader.Entry

    func run() throws -> SalvageReport {
        guard !FileManager.default.fileExists(atPath: targetPath) else {
            throw ObjectGraphError(
                .invalidOperation, "Cannot recover \(damagedPath) into \(targetPath): that file exists already; recover into a new file")
        }
        guard let data = FileManager.default.contents(atPath: damagedPath) else {
            throw ObjectGraphError(
                .storeUnavailable,
                "Cannot recover \(damagedPath): \(FileManager.default.fileExists(atPath: damagedPath) ? "the file cannot be read" : "there is no file there")"
            )
        }
        let logBytes = FileManager.default.contents(atPath: damagedPath + "-wal").map { [UInt8]($0) }
        let image = DatabaseImage(file: [UInt8](data), log: logBytes.flatMap(WriteAheadLog.init))
        var findings = image.findings
        if let logBytes, logBytes.count >= WriteAheadLog.headerSize, WriteAheadLog(logBytes) == nil {
            findings.append("the -wal file is not a write-ahead log (its magic number is wrong): none of it could be used")
        }
        var reader = BTreeReader(image: image)
        let schema = readSchema(&reader, findings: &findings)
        let metadata = readMetadata(&reader, root: schema[StoreSchema.metadataTable]?.rootPage)
        let (model, fromFile) = try chooseModel(metadata: metadata, findings: &findings)
        let tables = SalvageTable.tables(of: model, schema: schema)
        var contents = tables.map { _ in BTreeReader.TreeContents() }
        for (index, table) in tables.enumerated() {
            if case .metadata = table.role { continue }
            if let root = table.rootPage { contents[index] = reader.read(root: root, isTable: table.hasRowid, accepts: table.accepts) }
        }
        // The trees read so far; the rest of the pages are looked at for orphans next.
        report(.reading, reader.claimed.count, image.pageCount)
        adoptOrphans(&reader, tables: tables, contents: &contents)
        report(.reading, image.pageCount, image.pageCount)
        let written = try write(model: model, tables: tables, contents: contents, metadata: metadata)
        return SalvageReport(
            modelName: model.name, modelVersion: model.version, modelCameFromDamagedFile: fromFile,
            entities: written.entities, relationships: written.relationships, pageCount: image.pageCount,
            damagedPages: contents.reduce(into: Set<Int>()) { $0.formUnion($1.damagedPages) }.count, findings: findings)
    }

    private func report(_ phase: SalvageProgress.Phase, _ completed: Int, _ total: Int) {
        progress?(SalvageProgress(phase: phase, completed: completed, total: total))
    }

    // MARK: Reading

    /// Tables by name: root page and CREATE statement, from the schema rows that can be read.
    private func readSchema(_ reader: inout BTreeReader, findings: inout [String]) -> [String: (rootPage: Int, sql: String)] {
        let rows = reader.read(root: 1, isTable: true) { entry in
            guard entry.values.count == 5, case .text = entry.values[0], case .text = entry.values[1], case .integer = entry.values[3]
            else { return false }
            return true
        }
        var schema: [String: (rootPage: Int, sql: String)] = [:]
        for entry in rows.entries {
            guard case .text(let type) = entry.values[0], type == Array("table".utf8), case .text(let name) = entry.values[1],
                case .integer(let root) = entry.values[3], root >= 2, root <= reader.image.pageCount, case .text(let sql) = entry.values[4]
            else { continue }
            schema[String(decoding: name, as: UTF8.self)] = (Int(root), String(decoding: sql, as: UTF8.self))
        }
        if !rows.damagedPages.isEmpty || schema.isEmpty {
            findings.append(
                "the schema could not be read\(schema.isEmpty ? "" : " whole"): tables without a readable entry were recognised by the shape of their rows"
            )
        }
        return schema
    }

    /// The metadata's entries, from its tree or, when that is lost, from pages of its shape.
    private func readMetadata(_ reader: inout BTreeReader, root: Int?) -> [String: SalvagedValue] {
        func isMetadata(_ entry: Entry) -> Bool {
            guard entry.rowid != nil, entry.values.count == 2, case .text(let key) = entry.values[0] else { return false }
            return StoreMetadataRecord.Key.all.contains(String(decoding: key, as: UTF8.self))
        }
        var entries = root.map { reader.read(root: $0, isTable: true, accepts: isMetadata).entries } ?? []
        if entries.isEmpty {
            for page in reader.orphanLeaves(isTable: true) {
                let found = reader.entries(of: page).compactMap { $0 }.filter(isMetadata)
                guard !found.isEmpty, found.count * 2 >= page.cellOffsets.count else { continue }
                reader.claim(page)
                entries += found
            }
        }
        var metadata: [String: SalvagedValue] = [:]
        for entry in entries {
            if case .text(let key) = entry.values[0] { metadata[String(decoding: key, as: UTF8.self)] = entry.values[1] }
        }
        return metadata
    }

    private func chooseModel(metadata: [String: SalvagedValue], findings: inout [String]) throws -> (ManagedObjectModel, Bool) {
        // The recorded hash proves the JSON whole: a damaged byte can leave valid JSON of
        // another model.
        if case .text(let json) = metadata[StoreMetadataRecord.Key.modelJSON],
            case .text(let hash) = metadata[StoreMetadataRecord.Key.modelHash],
            let stored = try? ManagedObjectModel(data: Data(json), sourceName: "the model kept in \(damagedPath)"),
            stored.versionHash == String(decoding: hash, as: UTF8.self)
        {
            if let givenModel, givenModel.versionHash != stored.versionHash {
                findings.append(
                    "the store was written by model '\(stored.name)' version \(stored.version), not the '\(givenModel.name)' version \(givenModel.version) given: it was recovered with its own model (opening it with the newer one migrates it)"
                )
            }
            return (stored, true)
        }
        guard let givenModel else {
            throw ObjectGraphError(
                .corruptStore,
                "Cannot recover \(damagedPath): the model that wrote it cannot be read from the file (its metadata is damaged); pass the model (objectgraph recover --model FILE)"
            )
        }
        findings.append("the model could not be read from the file's metadata: the model given was used")
        return (givenModel, false)
    }

    /// Gives each unclaimed table leaf to the one table most of whose rows it holds (rows already
    /// read from a tree win over an orphan's copy of the same key).
    private func adoptOrphans(_ reader: inout BTreeReader, tables: [SalvageTable], contents: inout [BTreeReader.TreeContents]) {
        let candidates = tables.indices.filter { tables[$0].hasRowid && !isMetadata(tables[$0]) }
        for page in reader.orphanLeaves(isTable: true) {
            let entries = reader.entries(of: page).compactMap { $0 }
            // Ranked by rows taken, then by rows of exactly the table's width: a table altered
            // by a migration takes shorter rows too, so a narrower table's rows fit a wider one.
            var best: (table: Int, rows: [Entry], exact: Int)?
            var tied = false
            for index in candidates {
                let accepted = entries.filter(tables[index].accepts)
                let exact = accepted.filter { $0.values.count == tables[index].columns.count }.count
                guard !accepted.isEmpty else { continue }
                if let current = best, (accepted.count, exact) == (current.rows.count, current.exact) {
                    tied = true
                } else if best.map({ (accepted.count, exact) > ($0.rows.count, $0.exact) }) ?? true {
                    best = (index, accepted, exact)
                    tied = false
                }
            }
            guard let best, !tied, best.rows.count * 2 >= page.cellOffsets.count else { continue }
            reader.claim(page)
            contents[best.table].entries += best.rows
            contents[best.table].rejected += page.cellOffsets.count - best.rows.count
        }
    }

    private func isMetadata(_ table: SalvageTable) -> Bool {
        if case .metadata = table.role { return true }
        return false
    }

    // MARK: Writing

    private func write(
        model: ManagedObjectModel, tables: [SalvageTable], contents: [BTreeReader.TreeContents], metadata: [String: SalvagedValue]
    )
        throws -> (entities: [SalvageReport.EntityResult], relationships: [SalvageReport.RelationshipResult])
    {
        let directory = URL(fileURLWithPath: targetPath).deletingLastPathComponent().path
        let temporary = "\(directory)/.\(URL(fileURLWithPath: targetPath).lastPathComponent).recovering-\(UUID().uuidString)"
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary + suffix) } }
        let connection = try SQLiteConnection(path: temporary, readOnly: false, busyTimeout: 5)
        var recovered = [String: Int]()
        var skipped = [String: Int]()
        var cleared = [String: Int]()
        var pairs = [String: (recovered: Int, dropped: Int)]()
        let newColumns = Dictionary(
            uniqueKeysWithValues: SalvageTable.tables(of: model, schema: [:]).map { ($0.name, Set($0.columns.map(\.name))) })
        let total = contents.reduce(0) { $0 + $1.entries.count }
        var done = 0
        try connection.transaction {
            for statement in StoreSchema.statements(for: model) { try connection.execute(statement) }
            var storeMetadata = StoreMetadataRecord(newStoreFor: model)
            if case .text(let identifier) = metadata[StoreMetadataRecord.Key.storeIdentifier],
                let uuid = UUID(uuidString: String(decoding: identifier, as: UTF8.self))
            {
                storeMetadata.storeIdentifier = uuid.uuidString
            }
            if case .text(let created) = metadata[StoreMetadataRecord.Key.createdAt] {
                storeMetadata.createdAt = String(decoding: created, as: UTF8.self)
            }
            try storeMetadata.write(to: connection)
            for (index, table) in tables.enumerated() {
                if isMetadata(table) { continue }
                let owner = reportName(of: table, model: model)
                let (inserted, refused, byEntity) = try insert(
                    contents[index].entries, into: table, keeping: newColumns[table.name] ?? [], on: connection)
                done += contents[index].entries.count
                report(.writing, done, total)
                skipped[owner, default: 0] += contents[index].rejected + refused
                if case .join = table.role { pairs[owner] = (inserted, 0) }
                for (entity, count) in byEntity { recovered[entity, default: 0] += count }
            }
            for reference in StoredReference.all(in: model, layout: RelationshipLayout(model: model)) {
                if let entity = reference.entity, let relationship = reference.relationship {
                    var assignments = "\(reference.column) = NULL"
                    if let column = TableLayout.referenceEntityColumn(relationship, model: model) {
                        assignments += ", \(quoteIdentifier(column)) = NULL"
                    }
                    try connection.execute("UPDATE \(reference.table) SET \(assignments) WHERE \(reference.danglingCondition)")
                    cleared[entity.name, default: 0] += Int(sqlite3_changes(connection.handle))
                } else if let join = reference.joinTable {
                    try connection.execute("DELETE FROM \(reference.table) WHERE \(reference.danglingCondition)")
                    let name = Self.ownerName(of: join, model: model)
                    pairs[name]?.recovered -= Int(sqlite3_changes(connection.handle))
                    pairs[name]?.dropped += Int(sqlite3_changes(connection.handle))
                }
            }
        }
        try connection.execute("PRAGMA journal_mode = WAL")
        connection.close()
        guard rename(temporary, targetPath) == 0 else {
            throw ObjectGraphError(
                .storeUnavailable,
                "Cannot recover \(damagedPath) into \(targetPath): the new store cannot be moved into place (\(String(cString: strerror(errno))))"
            )
        }
        _ = try SQLiteStoreState.readMetadata(path: targetPath)
        let entities = model.entities.map { entity in
            SalvageReport.EntityResult(
                entityName: entity.name, rowsRecovered: recovered[entity.name] ?? 0,
                rowsSkipped: skipped[entity.name] ?? 0, referencesCleared: cleared[entity.name] ?? 0)
        }
        let relationships = tables.compactMap { table -> SalvageReport.RelationshipResult? in
            guard case .join = table.role, let counts = pairs[reportName(of: table, model: model)] else { return nil }
            return SalvageReport.RelationshipResult(
                name: reportName(of: table, model: model), pairsRecovered: counts.recovered, pairsDropped: counts.dropped)
        }
        return (entities, relationships)
    }

    /// The name a table's counts go under: its root entity, or the owning `Entity.relationship`.
    private func reportName(of table: SalvageTable, model: ManagedObjectModel) -> String {
        switch table.role {
        case .entity(let root): root.name
        case .join(let join): Self.ownerName(of: join, model: model)
        case .metadata, .primaryKeys: table.name
        }
    }

    /// `Owner.relationship` of a join table named `_join_Owner_relationship`.
    private static func ownerName(of join: JoinTable, model: ManagedObjectModel) -> String {
        let owner = model.entities[join.sourceEntityIndex].name
        return "\(owner).\(join.name.dropFirst("_join_\(owner)_".count))"
    }

    /// Inserts the rows (first copy of each key), returning how many went in, how many the new
    /// store refused (a unique value seen before), and the count per entity.
    private func insert(
        _ entries: [Entry], into table: SalvageTable, keeping names: Set<String>, on connection: SQLiteConnection
    ) throws -> (Int, Int, [String: Int]) {
        let kept = table.columns.enumerated().filter { names.contains($0.element.name) }
        let statement = try connection.prepare(
            "INSERT INTO \(quoteIdentifier(table.name)) (\(kept.map { quoteIdentifier($0.element.name) }.joined(separator: ", "))) VALUES (\(kept.map { _ in "?" }.joined(separator: ", ")))"
        )
        let entityColumn = table.columns.firstIndex { $0.name == TableLayout.entityColumn }
        var seen = Set<[SalvagedValue]>()
        var inserted = 0
        var refused = 0
        var byEntity: [String: Int] = [:]
        for entry in entries {
            // Rows are keyed by rowid, join pairs by their two keys, key counters by entity.
            let key: [SalvagedValue] =
                switch table.role {
                case .entity: [.integer(entry.rowid ?? 0)]
                case .join, .primaryKeys, .metadata: Array(entry.values.prefix(table.hasRowid ? 1 : 2))
                }
            guard seen.insert(key).inserted else {
                refused += 1
                continue
            }
            statement.reset()
            for (position, (index, column)) in kept.enumerated() {
                var value = index < entry.values.count ? entry.values[index] : .null
                if column.name == StoreSchema.primaryKeyColumn, let rowid = entry.rowid { value = .integer(rowid) }
                Self.bind(value, to: statement.handle, at: Int32(position + 1), real: column.type == "REAL")
            }
            do {
                try statement.execute()
            } catch let error as ObjectGraphError where (error.sqliteCode ?? 0) & 0xFF == SQLITE_CONSTRAINT {
                refused += 1
                continue
            }
            inserted += 1
            guard case .entity(let root) = table.role else { continue }
            if let entityColumn, case .text(let name) = entry.values[entityColumn] {
                byEntity[String(decoding: name, as: UTF8.self), default: 0] += 1
            } else {
                byEntity[root.name, default: 0] += 1
            }
        }
        return (inserted, refused, byEntity)
    }

    private static func bind(_ value: SalvagedValue, to statement: OpaquePointer, at index: Int32, real: Bool) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number) where real: sqlite3_bind_double(statement, index, Double(number))
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .real(let number): sqlite3_bind_double(statement, index, number)
        case .text(let bytes):
            (bytes + [0]).withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) {
                    _ = sqlite3_bind_text(statement, index, $0.baseAddress, Int32(bytes.count), transient)
                }
            }
        case .blob(let bytes) where bytes.isEmpty: sqlite3_bind_zeroblob(statement, index, 0)
        case .blob(let bytes): bytes.withUnsafeBytes { _ = sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        }
    }
}
