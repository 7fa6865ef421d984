import Foundation

/// How a newer model's entities and properties come from an older model's, inferred as Core
/// Data's lightweight migration infers it: by name, or by `renamingIdentifier` (the name in the
/// older model). Every difference the inference cannot carry data across is an issue, with the
/// JSON path of what causes it in the newer model.
struct ModelMapping {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    /// Per destination entity (by index): the source entity its objects come from, `nil` for a
    /// new entity.
    let sourceEntities: [EntityDescription?]
    /// Why the data cannot be carried across as inferred; empty when it can.
    let issues: [ModelIssue]

    /// Whether a migration stage, an explicit mapping or a text conversion completes the step,
    /// so new required attributes without a default may be left to it.
    var isCompletedByStage: Bool { completedByStage || !textConversions.isEmpty }
    private let completedByStage: Bool
    /// Attributes that become strings from types SQL cannot write as Swift does (double, float,
    /// date, boolean): converted in Swift after the copy, as `MappingExpression.text` writes them.
    let textConversions: [(entity: EntityDescription, attribute: AttributeDescription, oldName: String)]
    /// The attributes (`Entity.key`) an explicit `MappingModel` gives values to: not inferred,
    /// not copied.
    let explicitAttributes: Set<String>

    init(from source: ManagedObjectModel, to destination: ManagedObjectModel, completedByStage: Bool = false, explicit: MappingModel? = nil)
    {
        self.source = source
        self.destination = destination
        self.completedByStage = completedByStage
        let explicitAttributes = explicit?.mappedAttributes ?? []
        self.explicitAttributes = explicitAttributes
        let explicitSources = explicit?.sourceEntityNames ?? [:]
        let sourceEntities = destination.entities.map { source.entity(named: explicitSources[$0.name] ?? $0.renamingIdentifier ?? $0.name) }
        self.sourceEntities = sourceEntities
        var issues = IssueList(model: destination)
        for entity in destination.entities {
            Self.check(
                entity, from: sourceEntities[entity.index], sourceEntities: sourceEntities, source: source, destination: destination,
                completedByStage: completedByStage, explicitAttributes: explicitAttributes, into: &issues)
        }
        self.issues = issues.issues
        self.textConversions = destination.entities.flatMap { entity in
            entity.attributes.compactMap { attribute in
                guard attribute.type == .string, !explicitAttributes.contains("\(entity.name).\(attribute.name)"),
                    let old = Self.sourceAttribute(of: attribute, in: sourceEntities[entity.index]), Self.convertsToText(old.type)
                else { return nil }
                return (entity, attribute, old.name)
            }
        }
    }

    /// Whether values of `type` become strings in Swift (SQL's text of a real, a date or a
    /// Boolean is not Swift's).
    static func convertsToText(_ type: AttributeType) -> Bool {
        type == .double || type == .float || type == .date || type == .boolean
    }

    /// The text conversions as an explicit mapping of the step.
    var textConversionMapping: MappingModel? {
        guard !textConversions.isEmpty else { return nil }
        let byEntity = Dictionary(grouping: textConversions, by: { $0.entity.name })
        return MappingModel(
            from: source.version, to: destination.version,
            byEntity.map { name, conversions in
                EntityMapping(
                    name,
                    properties: conversions.map { conversion in
                        let text = MappingExpression.text(.source(conversion.oldName))
                        let fallback = conversion.attribute.defaultValue.anyValue as? String
                        return PropertyMapping(conversion.attribute.name, fallback.map { .coalesce([text, .string($0)]) } ?? text)
                    })
            })
    }

    /// The required attributes a stage or an explicit mapping must give every object a value:
    /// new ones without a default, and the explicitly mapped ones.
    var attributesLeftToStage: [(entity: EntityDescription, attribute: AttributeDescription)] {
        guard isCompletedByStage else { return [] }
        return destination.entities.flatMap { entity in
            entity.attributes.filter { attribute in
                sourceEntities[entity.index] != nil && !attribute.isTransient && !attribute.isOptional
                    && (explicitAttributes.contains("\(entity.name).\(attribute.name)")
                        || attribute.defaultValue.isNull && sourceAttribute(of: attribute, in: entity) == nil)
            }.map { (entity, $0) }
        }
    }

    /// The source attribute `attribute` of a destination entity takes its values from, if any
    /// (none for one an explicit mapping gives values to).
    func sourceAttribute(of attribute: AttributeDescription, in entity: EntityDescription) -> AttributeDescription? {
        guard !explicitAttributes.contains("\(entity.name).\(attribute.name)") else { return nil }
        return Self.sourceAttribute(of: attribute, in: sourceEntities[entity.index])
    }

    /// The source relationship `relationship` of a destination entity takes its objects from, if any.
    func sourceRelationship(of relationship: RelationshipDescription, in entity: EntityDescription) -> RelationshipDescription? {
        Self.sourceRelationship(of: relationship, in: sourceEntities[entity.index])
    }

    /// The destination entity whose objects come from `entity` of the source, if any.
    func destinationEntity(from entity: EntityDescription) -> EntityDescription? {
        sourceEntities.firstIndex { $0 === entity }.map { destination.entities[$0] }
    }

    private static func sourceAttribute(of attribute: AttributeDescription, in entity: EntityDescription?) -> AttributeDescription? {
        guard !attribute.isTransient, let found = entity?.attribute(named: attribute.renamingIdentifier ?? attribute.name),
            !found.isTransient
        else { return nil }
        return found
    }

    private static func sourceRelationship(
        of relationship: RelationshipDescription, in entity: EntityDescription?
    ) -> RelationshipDescription? {
        entity?.relationship(named: relationship.renamingIdentifier ?? relationship.name)
    }

    /// The issues of one destination entity: its key, its table, and its own properties (an
    /// inherited property is checked where it is declared).
    private static func check(
        _ entity: EntityDescription, from sourceEntity: EntityDescription?, sourceEntities: [EntityDescription?],
        source: ManagedObjectModel, destination: ManagedObjectModel, completedByStage: Bool, explicitAttributes: Set<String>,
        into issues: inout IssueList
    ) {
        let entityPath = "entities[\(entity.index)]"
        if let sourceEntity {
            if sourceEntity.primaryKey != entity.primaryKey {
                issues.add(
                    entityPath,
                    "\(entity.name)'s primaryKey changed from \(sourceEntity.primaryKey ?? "none") to \(entity.primaryKey ?? "none"); object IDs are made of it, so it cannot change by migration"
                )
            }
        }
        if entity.parentName == nil {
            // A table holds one hierarchy: its rows must come from one source table, whose keys
            // (and so object IDs) cannot collide.
            let sourceTables = Set(destination.kinds(of: entity).compactMap { sourceEntities[$0.index] }.map { source.root(of: $0).name })
            if sourceTables.count > 1 {
                issues.add(
                    entityPath,
                    "\(entity.name)'s hierarchy would gather the objects of \(sourceTables.sorted().joined(separator: " and ")), which were numbered apart and may share keys; migration does not merge them"
                )
            }
        }
        for attribute in entity.ownAttributes
        where !attribute.isTransient && !attribute.isPrimaryKey && !explicitAttributes.contains("\(entity.name).\(attribute.name)") {
            let path = "\(entityPath).attributes[\(attribute.index - entity.inheritedCounts.attributes)]"
            let name = "\(entity.name).\(attribute.name)"
            guard let old = sourceAttribute(of: attribute, in: sourceEntity) else {
                if sourceEntity != nil, !attribute.isOptional, attribute.defaultValue.isNull, !completedByStage {
                    issues.add(
                        path,
                        "\(name) is new and required but has no default, so the objects already stored would have no value; give it a \"default\", make it optional, or compute it in a MigrationStage's complete"
                    )
                }
                continue
            }
            if MigrationValueConversion(from: old.type, to: attribute.type) == nil, !(attribute.type == .string && convertsToText(old.type))
            {
                issues.add(
                    path,
                    "\(name) changes type from \(old.type.rawValue) to \(attribute.type.rawValue), which is not a lossless widening (integer16 → integer32 → integer64, float → double, integers → double, anything but binary → string); map it with a MappingModel"
                )
            }
            if old.isOptional, !attribute.isOptional, attribute.defaultValue.isNull {
                issues.add(
                    path, "\(name) becomes required but has no default for the objects stored without a value; give it a \"default\"")
            }
        }
        for relationship in entity.ownRelationships {
            let path = "\(entityPath).relationships[\(relationship.index - entity.inheritedCounts.relationships)]"
            let name = "\(entity.name).\(relationship.name)"
            guard let old = sourceRelationship(of: relationship, in: sourceEntity) else {
                if sourceEntity != nil, !relationship.isOptional {
                    issues.add(path, "\(name) is new and required, so the objects already stored would break it; make it optional")
                }
                continue
            }
            // Any relationship's pairs can be written into a join table (a to-one becoming a
            // to-many, a one-to-many becoming a many-to-many). Becoming ordered starts from key
            // order (positions are empty until the first change), becoming unordered drops the
            // positions; a to-many becoming a to-one would drop objects.
            let becomesJoinTable = relationship.isToMany && storageKind(of: relationship, in: entity, destination) == "a join table"
            if relationship.isToOne && old.isToMany {
                issues.add(
                    path,
                    "\(name) changes from \(shape(of: old)) to \(shape(of: relationship)), which would drop the objects past the first; migration does not infer it"
                )
            } else if let sourceEntity, !becomesJoinTable,
                storageKind(of: old, in: sourceEntity, source) != storageKind(of: relationship, in: entity, destination)
            {
                issues.add(
                    path,
                    "\(name) would be kept another way (\(storageKind(of: old, in: sourceEntity, source)) before, \(storageKind(of: relationship, in: entity, destination)) now) because its inverse changed, which migration does not infer yet"
                )
            }
            let oldDestination = destination.entity(named: relationship.destinationEntityName).flatMap { sourceEntities[$0.index] }
            if oldDestination?.name != old.destinationEntityName {
                issues.add(
                    path,
                    "\(name) now leads to \(relationship.destinationEntityName), which does not come from its old destination \(old.destinationEntityName)"
                )
            }
        }
    }

    /// How a store keeps `relationship`, in words.
    private static func storageKind(
        of relationship: RelationshipDescription, in entity: EntityDescription, _ model: ManagedObjectModel
    ) -> String {
        switch RelationshipStorage(relationship, of: entity, in: model) {
        case .foreignKey: "a key in its own rows"
        case .inverseForeignKey: "its inverse's key"
        case .joinTable: "a join table"
        }
    }

    private static func shape(of relationship: RelationshipDescription) -> String {
        relationship.isToOne ? "to-one" : relationship.isOrdered ? "ordered to-many" : "to-many"
    }

    /// The issues found so far, against the destination model's file.
    private struct IssueList {
        let model: ManagedObjectModel
        var issues: [ModelIssue] = []

        mutating func add(_ path: String, _ message: String) {
            issues.append(ModelIssue(file: model.sourceURL?.path, path: path, message: message))
        }
    }
}
