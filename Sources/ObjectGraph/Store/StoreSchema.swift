import Foundation

/// The tables and indexes that hold a model, as DDL statements in a fixed order: SQLite's
/// statements, and the names, indexes and join tables the PostgreSQL store builds its own DDL from.
///
/// Each entity is a STRICT table named after it: `"_pk" INTEGER PRIMARY KEY` (the rowid, which
/// holds the entity's `primaryKey` attribute when it has one, instead of a column of its own),
/// one column per stored attribute, NOT NULL when the attribute is required, one INTEGER
/// foreign-key column per to-one relationship (named after it, always nullable: required
/// relationships are enforced by validation, so a delete can nullify first and validate after),
/// the position columns of ordered to-manys kept through those foreign keys, and last
/// `"_version" INTEGER NOT NULL DEFAULT 1` (for optimistic locking; inserts write
/// `Snapshot.firstVersion`). Uniqueness constraints become unique indexes,
/// `indexed` attributes and compound `indexes` plain ones, and every foreign key is indexed. Join
/// tables of many-to-many and one-way to-many relationships follow (see `RelationshipStorage`),
/// then two tables of our own: the store's metadata and the primary-key counters.
package enum StoreSchema {
    /// The primary-key column of every entity table.
    package static let primaryKeyColumn = "_pk"
    /// The row-version column of every entity table.
    package static let versionColumn = "_version"
    /// Key/value metadata: format version, model name, version, hash and JSON, store UUID, creation date.
    package static let metadataTable = "_objectgraph_metadata"
    /// The highest primary key handed out per entity (reserved keys included).
    package static let primaryKeysTable = "_objectgraph_primary_keys"

    /// Every statement that creates `model`'s schema, tables before their indexes, our own
    /// tables last (unless not `includingOwnTables`). Each is idempotent (`IF NOT EXISTS`).
    static func statements(for model: ManagedObjectModel, includingOwnTables: Bool = true) -> [String] {
        var indexNames = IndexNames()
        var statements: [String] = []
        let layout = RelationshipLayout(model: model)
        for entity in model.entities where model.root(of: entity) === entity {
            let table = TableLayout(root: entity, model: model, relationshipLayout: layout)
            statements.append(createTable(table))
            for member in table.entities {
                statements += indexes(for: member, in: table, model: model, names: &indexNames)
            }
        }
        for table in layout.joinTables {
            statements += joinTable(table, names: &indexNames)
        }
        guard includingOwnTables else { return statements }
        statements.append(
            """
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(metadataTable)) (
                "key" TEXT PRIMARY KEY,
                "value" ANY
            ) STRICT
            """)
        statements.append(
            """
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(primaryKeysTable)) (
                "entity" TEXT PRIMARY KEY,
                "max_key" INTEGER NOT NULL
            ) STRICT
            """)
        return statements
    }

    /// The index statements among `statements`, with the names they create.
    package static func indexStatements(in statements: [String]) -> [(name: String, statement: String)] {
        let prefix = "INDEX IF NOT EXISTS \""
        return statements.compactMap { statement in
            guard statement.hasPrefix("CREATE "), let start = statement.range(of: prefix)?.upperBound,
                let end = statement[start...].firstIndex(of: "\"")
            else { return nil }
            return (String(statement[start..<end]), statement)
        }
    }

    /// `CREATE TABLE IF NOT EXISTS "Root" (…) STRICT` for a table layout.
    static func createTable(_ table: TableLayout) -> String {
        // A `primaryKey` attribute is this column; the comment says so to whoever reads the schema.
        let keyAttribute = table.root.primaryKey.map { " /* \(table.root.name).\($0) */" } ?? ""
        var columns = ["\(quoteIdentifier(primaryKeyColumn)) INTEGER PRIMARY KEY\(keyAttribute)"]
        if table.hasEntityColumn { columns.append("\(quoteIdentifier(TableLayout.entityColumn)) TEXT NOT NULL") }
        for column in table.columns {
            columns.append("\(quoteIdentifier(column.name)) \(column.type)\(column.isRequired ? " NOT NULL" : "")")
        }
        // The row version comes last: SQLite reads a row's columns in table order, so every
        // column before the one a filter tests costs each scanned row a little, and only
        // fetches that read the whole row (and single-row updates) need the version.
        columns.append("\(quoteIdentifier(versionColumn)) INTEGER NOT NULL DEFAULT 1")
        return "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(table.root.name)) (\n    \(columns.joined(separator: ",\n    "))\n) STRICT"
    }

    /// The indexes an entity declares itself, on its table: one UNIQUE index per uniqueness
    /// constraint (`Entity_a_b_unique`), then one per indexed attribute (`Entity_a_idx`), per
    /// compound index (`Entity_a_b_idx`) and per to-one foreign key. An index that repeats an
    /// earlier one's columns is left out. In a table shared by a hierarchy, a sub-entity's indexes
    /// are partial: they cover the rows of the entity and its own sub-entities only.
    package static func indexes(
        for entity: EntityDescription, in table: TableLayout, model: ManagedObjectModel, names: inout IndexNames
    ) -> [String] {
        var statements: [String] = []
        var covered: Set<[String]> = []
        let condition = entity === table.root ? "" : " WHERE \(TableLayout.entityFilter(model.kinds(of: entity)))"
        func add(_ attributes: [String], unique: Bool) {
            let columns = attributes.map { name in entity.attribute(named: name).map(table.column(of:)) ?? name }
            // The primary key alone is the rowid: unique and indexed already.
            guard !columns.isEmpty, columns != [primaryKeyColumn], covered.insert(columns).inserted else { return }
            let name = names.claim("\(entity.name)_\(attributes.joined(separator: "_"))_\(unique ? "unique" : "idx")")
            let list = columns.map(quoteIdentifier).joined(separator: ", ")
            statements.append(
                "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoteIdentifier(name)) ON \(quoteIdentifier(table.root.name)) (\(list))\(condition)"
            )
        }
        for constraint in entity.ownUniquenessConstraints { add(constraint, unique: true) }
        for attribute in entity.ownAttributes where attribute.isIndexed && !attribute.isTransient { add([attribute.name], unique: false) }
        for index in entity.ownIndexes { add(index, unique: false) }
        for relationship in entity.ownRelationships where relationship.isToOne { add([relationship.name], unique: false) }
        return statements
    }

    /// A join table (see `JoinTable`) keyed by its pairs, with an index for reading it from the
    /// destination side.
    static func joinTable(_ table: JoinTable, names: inout IndexNames) -> [String] {
        [
            "\(createJoinTable(table, integerType: "INTEGER")) STRICT, WITHOUT ROWID",
            joinTableIndex(table, names: &names)
        ]
    }

    /// `CREATE TABLE IF NOT EXISTS` a join table, its keys and positions of `integerType`, keyed
    /// by its pairs (the same in every dialect but for the type and table options).
    package static func createJoinTable(_ table: JoinTable, integerType: String) -> String {
        var columns = [
            "\(quoteIdentifier(JoinTable.sourceColumn)) \(integerType) NOT NULL",
            "\(quoteIdentifier(JoinTable.destinationColumn)) \(integerType) NOT NULL"
        ]
        if table.hasPosition { columns.append("\(quoteIdentifier(JoinTable.positionColumn)) \(integerType)") }
        if table.hasInversePosition { columns.append("\(quoteIdentifier(JoinTable.inversePositionColumn)) \(integerType)") }
        columns.append("PRIMARY KEY (\(quoteIdentifier(JoinTable.sourceColumn)), \(quoteIdentifier(JoinTable.destinationColumn)))")
        return "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(table.name)) (\n    \(columns.joined(separator: ",\n    "))\n)"
    }

    /// The index reading a join table from the destination side (the same in every dialect).
    package static func joinTableIndex(_ table: JoinTable, names: inout IndexNames) -> String {
        let index = names.claim("\(table.name)_destination_idx")
        return
            "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(index)) ON \(quoteIdentifier(table.name)) (\(quoteIdentifier(JoinTable.destinationColumn)), \(quoteIdentifier(JoinTable.sourceColumn)))"
    }

    /// Index names, unique across the schema. SQLite compares names case-insensitively, and
    /// different entities can produce the same name (`A_b` + `c` and `A` + `b_c`), so a name
    /// already taken gets a numeric suffix — deterministically, since entities come in model order.
    package struct IndexNames {
        private var taken: Set<String> = []

        package init() {}

        package mutating func claim(_ name: String) -> String {
            var candidate = name
            var number = 2
            while !taken.insert(candidate.lowercased()).inserted {
                candidate = "\(name)_\(number)"
                number += 1
            }
            return candidate
        }
    }
}
