import Foundation

/// One step of the migration of a store (a SQLite file or a PostgreSQL database, see
/// `MigrationTarget`), from one model version to the next, inferred from a `ModelMapping`: every
/// table is rebuilt in the newer model's layout and its rows copied across with their keys (so
/// object IDs, URIs and relationships survive). The steps of a migration run in one transaction
/// (`StoreMigrationPath`), so a failure leaves the store exactly as it was.
///
/// The steps: drop the old indexes, move the old tables aside, create the new tables (join
/// tables too), copy each entity's rows and each join table's pairs, build the new indexes, drop
/// the old tables, carry the key counters over, and record the new model in the metadata.
struct StoreMigration: CustomStringConvertible {
    /// One statement of the migration with its bound values.
    struct Step {
        let sql: String
        var bindings: [AttributeValue] = []
        /// For a step that copies rows: what it copies, for progress reports.
        var copies: String? = nil
    }

    let mapping: ModelMapping
    let steps: [Step]
    /// Where a stage's `complete` runs: after the copies, before the indexes are built (so what
    /// it writes is checked by the new uniqueness constraints) and the old tables dropped.
    let completionPoint: Int

    /// Prefix of an old table while the new one of the same name is filled.
    static let oldTablePrefix = "_og_old_"

    /// The step from `mapping`'s source to its destination, in `target`, whose indexes are
    /// `existingIndexes`.
    init(_ mapping: ModelMapping, target: any MigrationTarget, existingIndexes: [String]) {
        self.mapping = mapping
        if let alterations = Self.alterations(mapping, target: target) {
            // Entities keep their names here, so their key counters stand as they are.
            steps = alterations + Self.recordModel(mapping.destination)
            completionPoint = 0
            return
        }
        let source = mapping.source, destination = mapping.destination
        let oldRelationships = RelationshipLayout(model: source)
        let newRelationships = RelationshipLayout(model: destination)
        var steps = existingIndexes.map { Step(sql: "DROP INDEX \(quoteIdentifier($0))") }
        let oldTables = source.entities.filter { source.root(of: $0) === $0 }.map(\.name) + oldRelationships.joinTables.map(\.name)
        steps += oldTables.map { Step(sql: "ALTER TABLE \(quoteIdentifier($0)) RENAME TO \(quoteIdentifier(Self.oldTablePrefix + $0))") }
        // Tables first, indexes after the copies: an index built over a filled table is sorted
        // once, where one filled row by row costs a B-tree insertion per row (3× the whole
        // migration at a million rows).
        let schema = target.schemaStatements(for: destination)
        let isIndex = { (statement: String) in statement.hasPrefix("CREATE INDEX ") || statement.hasPrefix("CREATE UNIQUE INDEX ") }
        steps += schema.filter { !isIndex($0) }.map { Step(sql: $0) }
        for entity in destination.entities {
            guard let sourceEntity = mapping.sourceEntities[entity.index] else { continue }
            steps.append(
                Self.copyRows(
                    of: entity, from: sourceEntity, mapping, target: target,
                    newLayout: target.layout(root: destination.root(of: entity), model: destination, relationships: newRelationships),
                    oldLayout: target.layout(root: source.root(of: sourceEntity), model: source, relationships: oldRelationships)))
        }
        steps += Self.copyJoinTables(mapping, old: oldRelationships, new: newRelationships)
        completionPoint = steps.count
        steps += schema.filter(isIndex).map { Step(sql: $0) }
        steps += oldTables.map { Step(sql: "DROP TABLE \(quoteIdentifier(Self.oldTablePrefix + $0))") }
        steps += Self.carryKeyCounters(mapping)
        steps += Self.recordModel(destination)
        self.steps = steps
    }

    /// Runs every statement, in the transaction the caller opened, with `stage`'s code before
    /// anything is copied and after the rows are copied (while the old tables are still there).
    func run(in target: any MigrationTarget, stage: MigrationStage?, copied: (_ rows: Int, _ what: String) -> Void) throws {
        if let prepare = stage?.prepare {
            try prepare(MigrationStageContext(model: mapping.source, otherModel: mapping.destination, target: target, sourceEntities: []))
        }
        for step in steps[..<completionPoint] {
            let changed = try target.run(step.sql, step.bindings)
            if let what = step.copies { copied(changed, what) }
        }
        if let complete = stage?.complete {
            let context = MigrationStageContext(
                model: mapping.destination, otherModel: mapping.source, target: target, sourceEntities: mapping.sourceEntities)
            try complete(context)
            try checkEveryValueGiven(by: context, stage: stage!)
        }
        for step in steps[completionPoint...] { try target.run(step.sql, step.bindings) }
    }

    /// Throws unless the stage gave every object a value for each new required attribute left to it.
    private func checkEveryValueGiven(by context: MigrationStageContext, stage: MigrationStage) throws {
        for (entity, attribute) in mapping.attributesLeftToStage {
            var objects = 0
            try context.forEachObject(ofEntity: entity.name) { _ in objects += 1 }
            let given = context.assigned[entity.index]?[attribute.index]?.count ?? 0
            guard given < objects else { continue }
            throw ObjectGraphError(
                .validation,
                "the migration stage from version \(stage.sourceVersion) to \(stage.destinationVersion) left \(objects - given) of \(objects) \(entity.name) objects without a value for \(entity.name).\(attribute.name), which is new, required and has no default",
                entityName: entity.name, key: attribute.name)
        }
    }

    /// The plan as text: each statement, with its bound values after it.
    var description: String { description(stage: nil) }

    /// The plan as text, with where `stage`'s code runs.
    func description(stage: MigrationStage?) -> String {
        var lines = stage?.prepare == nil ? [] : ["-- the migration stage's prepare (Swift)"]
        for (position, step) in steps.enumerated() {
            if stage?.complete != nil, position == completionPoint { lines.append("-- the migration stage's complete (Swift)") }
            lines.append(step.sql + ";" + (step.bindings.isEmpty ? "" : "  -- " + step.bindings.map(\.debugText).joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }

    /// `INSERT INTO <new table> (…) SELECT … FROM <old table>` for the rows of `entity` (only its
    /// own rows, not its sub-entities', which are copied for themselves).
    private static func copyRows(
        of entity: EntityDescription, from sourceEntity: EntityDescription, _ mapping: ModelMapping, target: any MigrationTarget,
        newLayout: TableLayout, oldLayout: TableLayout
    ) -> Step {
        let newColumns = Set(newLayout.columns.map(\.name)), oldColumns = Set(oldLayout.columns.map(\.name))
        let requiredColumns = Set(newLayout.columns.filter(\.isRequired).map(\.name))
        var targets = [StoreSchema.primaryKeyColumn, StoreSchema.versionColumn]
        var values = targets.map(quoteIdentifier)
        var bindings: [AttributeValue] = []
        if newLayout.hasEntityColumn {
            targets.append(TableLayout.entityColumn)
            values.append("'\(entity.name)'")
        }
        for attribute in entity.attributes where !attribute.isTransient && !attribute.isPrimaryKey {
            targets.append(newLayout.column(of: attribute))
            // A new attribute starts at its default, as in Core Data; one that becomes required
            // takes its default where it had no value.
            guard let old = mapping.sourceAttribute(of: attribute, in: entity),
                let conversion = MigrationValueConversion(from: old.type, to: attribute.type)
            else {
                if !attribute.defaultValue.isNull {
                    values.append("?")
                    bindings.append(attribute.defaultValue)
                } else {
                    // A required column left to a migration stage holds a stand-in until the
                    // stage sets it (the stage must set every object's; see `MigrationStage`).
                    values.append(requiredColumns.contains(newLayout.column(of: attribute)) ? target.standIn(for: attribute.type) : "NULL")
                }
                continue
            }
            let value = target.convert(quoteIdentifier(oldLayout.column(of: old)), conversion)
            if old.isOptional, !attribute.isOptional, !attribute.defaultValue.isNull {
                values.append("coalesce(\(value), ?)")
                bindings.append(attribute.defaultValue)
            } else {
                values.append(value)
            }
        }
        for relationship in entity.relationships where relationship.isToOne {
            guard let old = mapping.sourceRelationship(of: relationship, in: entity), old.isToOne else { continue }
            targets.append(relationship.name)
            values.append(quoteIdentifier(old.name))
            if let column = TableLayout.referenceEntityColumn(relationship, model: mapping.destination), newColumns.contains(column) {
                targets.append(column)
                values.append(referencedEntity(of: relationship, from: old, mapping, oldColumns: oldColumns))
            }
            let position = RelationshipStorage.positionColumn(of: relationship), oldPosition = RelationshipStorage.positionColumn(of: old)
            if newColumns.contains(position), oldColumns.contains(oldPosition) {
                targets.append(position)
                values.append(quoteIdentifier(oldPosition))
            }
        }
        let filter = oldLayout.hasEntityColumn ? " WHERE \(TableLayout.entityFilter([sourceEntity]))" : ""
        return Step(
            sql:
                "INSERT INTO \(quoteIdentifier(newLayout.root.name)) (\(targets.map(quoteIdentifier).joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(quoteIdentifier(oldTablePrefix + oldLayout.root.name))\(filter)",
            bindings: bindings, copies: entity.name)
    }

    /// The new `_<relationship>_entity` value: the destination's entity in the newer model's
    /// names, from the old column of that kind or, when the old destination had no sub-entities,
    /// the one entity it could be.
    private static func referencedEntity(
        of relationship: RelationshipDescription, from old: RelationshipDescription, _ mapping: ModelMapping, oldColumns: Set<String>
    ) -> String {
        let key = quoteIdentifier(old.name)
        let renamed: (EntityDescription) -> String = { mapping.destinationEntity(from: $0)?.name ?? $0.name }
        if let column = TableLayout.referenceEntityColumn(old, model: mapping.source), oldColumns.contains(column) {
            let cases = mapping.source.kinds(of: mapping.source.entities[old.destinationIndex]).map {
                "WHEN '\($0.name)' THEN '\(renamed($0))'"
            }
            return "CASE \(quoteIdentifier(column)) \(cases.joined(separator: " ")) END"
        }
        return "CASE WHEN \(key) IS NULL THEN NULL ELSE '\(renamed(mapping.source.entities[old.destinationIndex]))' END"
    }

    /// Copies the pairs of each new join table from wherever the older model kept them: its old
    /// join table (turned around when written from the other side, positions kept), the
    /// foreign keys of a to-one that became a to-many, or of the to-one inverse of a to-many that
    /// became a many-to-many. The owning side's relationship is followed, or else its inverse.
    private static func copyJoinTables(_ mapping: ModelMapping, old: RelationshipLayout, new: RelationshipLayout) -> [Step] {
        var steps: [Step] = []
        for entity in mapping.destination.entities {
            for relationship in entity.relationships {
                guard case .joinTable(let table, .source) = new[relationship, of: entity],
                    !steps.contains(where: { $0.sql.hasPrefix("INSERT INTO \(quoteIdentifier(table.name)) ") })
                else { continue }
                let destination = mapping.destination.entities[relationship.destinationIndex]
                let inverse = relationship.inverseIndex.map { destination.relationships[$0] }
                let pairs =
                    sourcePairs(of: relationship, in: entity, mapping, old)
                    ?? inverse.flatMap { sourcePairs(of: $0, in: destination, mapping, old) }.map {
                        (select: $0.select, ownFirst: false, positions: nil)
                    }
                guard let pairs else { continue }
                var targets =
                    pairs.ownFirst
                    ? [JoinTable.sourceColumn, JoinTable.destinationColumn] : [JoinTable.destinationColumn, JoinTable.sourceColumn]
                var select = pairs.select
                if let positions = pairs.positions {
                    for (target, column) in zip([JoinTable.positionColumn, JoinTable.inversePositionColumn], positions)
                    where target == JoinTable.positionColumn ? table.hasPosition : table.hasInversePosition {
                        targets.append(target)
                        select = select.replacingOccurrences(of: " FROM ", with: ", \(column.map(quoteIdentifier) ?? "NULL") FROM ")
                    }
                }
                steps.append(
                    Step(
                        sql:
                            "INSERT INTO \(quoteIdentifier(table.name)) (\(targets.map(quoteIdentifier).joined(separator: ", "))) \(select)",
                        copies: "\(entity.name).\(relationship.name)"))
            }
        }
        return steps
    }

    /// `SELECT own, other FROM …`: the (object, destination) key pairs the older model kept for
    /// the relationship `relationship` of `entity` comes from, if it comes from one; with, from
    /// an old join table, the columns of its positions in the new table's order.
    private static func sourcePairs(
        of relationship: RelationshipDescription, in entity: EntityDescription, _ mapping: ModelMapping, _ old: RelationshipLayout
    ) -> (select: String, ownFirst: Bool, positions: [String?]?)? {
        guard let sourceEntity = mapping.sourceEntities[entity.index],
            let sourceRelationship = mapping.sourceRelationship(of: relationship, in: entity)
        else { return nil }
        let source = mapping.source, key = quoteIdentifier(StoreSchema.primaryKeyColumn)
        /// The rows of `entity`'s kinds in its old table.
        func rows(of entity: EntityDescription, where column: String) -> String {
            let kinds = source.isInHierarchy(entity) ? " AND \(TableLayout.entityFilter(source.kinds(of: entity)))" : ""
            return
                "FROM \(quoteIdentifier(oldTablePrefix + source.root(of: entity).name)) WHERE \(quoteIdentifier(column)) IS NOT NULL\(kinds)"
        }
        switch old[sourceRelationship, of: sourceEntity] {
        case .foreignKey:
            return (
                "SELECT \(key), \(quoteIdentifier(sourceRelationship.name)) \(rows(of: sourceEntity, where: sourceRelationship.name))",
                true, nil
            )
        case .inverseForeignKey(let inverse, _):
            let holder = source.entities[sourceRelationship.destinationIndex]
            return ("SELECT \(quoteIdentifier(inverse.name)), \(key) \(rows(of: holder, where: inverse.name))", true, nil)
        case .joinTable(let table, let side):
            let columns = table.columns(for: side)
            let inversePosition =
                side == .source
                ? (table.hasInversePosition ? JoinTable.inversePositionColumn : nil) : (table.hasPosition ? JoinTable.positionColumn : nil)
            return (
                "SELECT \(quoteIdentifier(columns.own)), \(quoteIdentifier(columns.other)) FROM \(quoteIdentifier(oldTablePrefix + table.name))",
                true, [columns.position, inversePosition]
            )
        }
    }

    /// The key counters under the newer model's entity names: each entity of a hierarchy gets
    /// the highest counter of the entities its table's rows came from, so no key is handed out
    /// twice (deleted keys included). Done in SQL, so later steps see the earlier ones' counters.
    private static func carryKeyCounters(_ mapping: ModelMapping) -> [Step] {
        // A temporary table is found before a table of the store's by its name alone, in SQLite
        // and PostgreSQL alike.
        let table = quoteIdentifier(StoreSchema.primaryKeysTable), saved = quoteIdentifier("_og_old_keys")
        var steps = [
            Step(sql: "CREATE TEMP TABLE \(saved) AS SELECT \"entity\", \"max_key\" FROM \(table)"),
            Step(sql: "DELETE FROM \(table)")
        ]
        let destination = mapping.destination
        for entity in destination.entities {
            let sources = destination.kinds(of: destination.root(of: entity)).compactMap { mapping.sourceEntities[$0.index] }
            let names = Set(sources.flatMap { mapping.source.kinds(of: mapping.source.root(of: $0)) }.map(\.name)).sorted()
            guard !names.isEmpty else { continue }
            steps.append(
                Step(
                    sql:
                        "INSERT INTO \(table) (\"entity\", \"max_key\") SELECT ?, max(\"max_key\") FROM \(saved) WHERE \"entity\" IN (\(names.map { "'\($0)'" }.joined(separator: ", "))) HAVING max(\"max_key\") IS NOT NULL",
                    bindings: [.string(entity.name)]))
        }
        steps.append(Step(sql: "DROP TABLE \(saved)"))
        return steps
    }

    /// Records the newer model in the metadata.
    private static func recordModel(_ model: ManagedObjectModel) -> [Step] {
        let entries: [(String, AttributeValue)] = [
            (StoreMetadataRecord.Key.modelName, .string(model.name)),
            (StoreMetadataRecord.Key.modelVersion, .integer(Int64(model.version))),
            (StoreMetadataRecord.Key.modelHash, .string(model.versionHash)),
            (StoreMetadataRecord.Key.modelJSON, .string(String(decoding: model.canonicalJSON, as: UTF8.self)))
        ]
        return entries.map { key, value in
            Step(
                sql: "UPDATE \(quoteIdentifier(StoreSchema.metadataTable)) SET \"value\" = ? WHERE \"key\" = ?",
                bindings: [value, .string(key)])
        }
    }
}
