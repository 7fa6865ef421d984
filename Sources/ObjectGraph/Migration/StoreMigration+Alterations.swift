/// A migration step the database can make without rebuilding a table: new tables, new nullable
/// columns (`ALTER TABLE … ADD COLUMN`, which rewrites no row in SQLite or PostgreSQL), indexes
/// added and dropped, and tables of removed entities dropped. A store of ten million rows gains
/// an optional attribute at once.
extension StoreMigration {
    /// The statements of the step when every change is one of those, or `nil` when a table must be
    /// rebuilt: a rename, a type change SQLite's storage does not already hold, a column that
    /// becomes required or is removed, a value existing rows must be given (a default, a
    /// stage's or a mapping's), a hierarchy or join table that changes, rows that move.
    static func alterations(_ mapping: ModelMapping, target: any MigrationTarget) -> [Step]? {
        let source = mapping.source, destination = mapping.destination
        guard !mapping.isCompletedByStage else { return nil }
        // Entities keep their names; a removed one takes its whole table (and no other) with it.
        for entity in destination.entities {
            if let old = mapping.sourceEntities[entity.index], old.name != entity.name { return nil }
        }
        for old in source.entities where mapping.destinationEntity(from: old) == nil {
            guard source.root(of: old) === old, source.kinds(of: old).count == 1 else { return nil }
        }
        let oldRelationships = RelationshipLayout(model: source), newRelationships = RelationshipLayout(model: destination)
        var steps: [Step] = []
        for root in destination.entities where destination.root(of: root) === root {
            let newLayout = target.layout(root: root, model: destination, relationships: newRelationships)
            guard let oldRoot = source.entity(named: root.name) else {
                // A new table, for a hierarchy of new entities only.
                guard destination.kinds(of: root).allSatisfy({ mapping.sourceEntities[$0.index] == nil }) else { return nil }
                continue
            }
            guard source.root(of: oldRoot) === oldRoot else { return nil }
            let oldLayout = target.layout(root: oldRoot, model: source, relationships: oldRelationships)
            guard oldLayout.hasEntityColumn == newLayout.hasEntityColumn,
                Set(source.kinds(of: oldRoot).map(\.name)).isSubset(of: Set(destination.kinds(of: root).map(\.name)))
            else { return nil }
            let newColumns = Dictionary(newLayout.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            // Every old column stays as it is; every new one can be empty in every existing row.
            for column in oldLayout.columns {
                guard let kept = newColumns[column.name], target.columnType(kept) == target.columnType(column),
                    kept.isRequired == column.isRequired
                else { return nil }
            }
            let oldNames = Set(oldLayout.columns.map(\.name))
            for column in newLayout.columns where !oldNames.contains(column.name) {
                guard !column.isRequired, isEmptyForExistingRows(column.name, in: root, mapping) else { return nil }
                steps.append(
                    Step(
                        sql:
                            "ALTER TABLE \(quoteIdentifier(root.name)) ADD COLUMN \(quoteIdentifier(column.name)) \(target.columnType(column))"
                    ))
            }
            // Values keep their meaning: the same attribute under the same name, stored alike.
            for entity in destination.kinds(of: root) {
                guard let old = mapping.sourceEntities[entity.index] else { continue }
                for attribute in entity.attributes where !attribute.isTransient {
                    guard let before = mapping.sourceAttribute(of: attribute, in: entity) else { continue }
                    guard before.name == attribute.name, MigrationValueConversion(from: before.type, to: attribute.type) == .asStored,
                        attribute.isOptional || !before.isOptional
                    else { return nil }
                }
                for relationship in entity.relationships {
                    guard let before = mapping.sourceRelationship(of: relationship, in: entity) else { continue }
                    guard before.name == relationship.name, before.isToMany == relationship.isToMany,
                        sameStorage(before, of: old, in: source, relationship, of: entity, in: destination)
                    else { return nil }
                }
            }
        }
        // Join tables: kept as they are, new ones only for new relationships, old ones dropped.
        let oldJoins = Dictionary(oldRelationships.joinTables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for table in newRelationships.joinTables {
            if let old = oldJoins[table.name] {
                guard old.hasPosition == table.hasPosition, old.hasInversePosition == table.hasInversePosition else { return nil }
            } else if !isNewRelationshipPair(table, mapping, newRelationships) {
                return nil
            }
        }
        // Indexes whose definition changed or went away are dropped first, so a name can be
        // taken again; tables of removed entities and relationships go; new tables and indexes come.
        let oldIndexes = target.indexStatements(for: source), newIndexes = target.indexStatements(for: destination)
        let dropped = oldIndexes.keys.sorted().filter { newIndexes[$0] != oldIndexes[$0] }
        steps = dropped.map { Step(sql: "DROP INDEX \(quoteIdentifier($0))") } + steps
        let newJoinNames = Set(newRelationships.joinTables.map(\.name))
        for old in source.entities where source.root(of: old) === old && mapping.destinationEntity(from: old) == nil {
            steps.append(Step(sql: "DROP TABLE \(quoteIdentifier(old.name))"))
        }
        for table in oldRelationships.joinTables where !newJoinNames.contains(table.name) {
            steps.append(Step(sql: "DROP TABLE \(quoteIdentifier(table.name))"))
        }
        let oldTables = Set(source.entities.map(\.name) + oldRelationships.joinTables.map(\.name))
        for root in destination.entities where destination.root(of: root) === root && !oldTables.contains(root.name) {
            steps.append(Step(sql: target.createTable(target.layout(root: root, model: destination, relationships: newRelationships))))
        }
        for table in newRelationships.joinTables where !oldTables.contains(table.name) {
            steps.append(Step(sql: target.createJoinTable(table)))
        }
        steps += target.schemaStatements(for: destination).compactMap { statement in
            StoreSchema.indexStatements(in: [statement]).first.flatMap { name, _ in
                oldIndexes[name] == statement ? nil : Step(sql: statement)
            }
        }
        return steps
    }

    /// Whether a new column of `root`'s table holds nothing for the rows already there: a new
    /// optional attribute without a default, a new relationship's key (or its entity or position
    /// column), or a column of a new sub-entity.
    private static func isEmptyForExistingRows(_ column: String, in root: EntityDescription, _ mapping: ModelMapping) -> Bool {
        for entity in mapping.destination.kinds(of: root) where mapping.sourceEntities[entity.index] != nil {
            if let attribute = entity.attribute(named: column), !attribute.isTransient,
                mapping.sourceAttribute(of: attribute, in: entity) == nil, !attribute.isOptional || !attribute.defaultValue.isNull
            {
                return false
            }
            // A relationship's key, or the entity column of a kept relationship whose destination
            // gained sub-entities: the rows hold references that column would have to name.
            let relationshipName =
                column.hasPrefix("_") && column.hasSuffix("_entity") ? String(column.dropFirst().dropLast("_entity".count)) : column
            if let relationship = entity.relationship(named: relationshipName),
                mapping.sourceRelationship(of: relationship, in: entity) != nil
            {
                return false
            }
        }
        return true
    }

    /// Whether the store keeps `relationship` the way it kept `before`.
    private static func sameStorage(
        _ before: RelationshipDescription, of oldEntity: EntityDescription, in source: ManagedObjectModel,
        _ relationship: RelationshipDescription, of entity: EntityDescription, in destination: ManagedObjectModel
    ) -> Bool {
        switch (RelationshipStorage(before, of: oldEntity, in: source), RelationshipStorage(relationship, of: entity, in: destination)) {
        case (.foreignKey, .foreignKey): return true
        case (.inverseForeignKey(let oldInverse, let oldPosition), .inverseForeignKey(let newInverse, let newPosition)):
            return oldInverse.name == newInverse.name && (oldPosition == nil) == (newPosition == nil)
        case (.joinTable(let oldTable, let oldSide), .joinTable(let newTable, let newSide)):
            return oldTable.name == newTable.name && oldSide == newSide
        default: return false
        }
    }

    /// Whether a join table new to the step belongs to relationships that are new on both sides.
    private static func isNewRelationshipPair(_ table: JoinTable, _ mapping: ModelMapping, _ layout: RelationshipLayout) -> Bool {
        for entity in mapping.destination.entities {
            for relationship in entity.relationships {
                guard case .joinTable(let owned, _) = layout[relationship, of: entity], owned == table else { continue }
                if mapping.sourceRelationship(of: relationship, in: entity) != nil { return false }
            }
        }
        return true
    }
}
