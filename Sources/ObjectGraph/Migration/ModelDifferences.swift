/// What changed from one model version to another, as migration sees it: each change in words,
/// and the changes a lightweight migration cannot infer (each with its JSON path in the newer
/// model). `objectgraph diff` prints it.
public struct ModelDifferences: Sendable {
    /// Each change, such as `Book.pages: integer32 → double` or `Label: renamed from Tag`, in
    /// the newer model's entity order.
    public let changes: [String]
    /// The changes that keep a store of the older model from migrating to the newer one by
    /// inference; empty when it can.
    public let issues: [ModelIssue]
    /// Whether a store of the older model migrates to the newer one by inference.
    public var isInferable: Bool { issues.isEmpty }
}

extension ManagedObjectModel {
    /// How this model differs from `older`, and whether a store written by `older` migrates to
    /// this model by inference.
    public func differences(from older: ManagedObjectModel) -> ModelDifferences {
        let mapping = ModelMapping(from: older, to: self)
        return ModelDifferences(changes: mapping.changes, issues: mapping.issues)
    }
}

extension ModelMapping {
    /// Each change from the source to the destination, in words.
    var changes: [String] {
        var changes: [String] = []
        for entity in destination.entities {
            guard let old = sourceEntities[entity.index] else {
                changes.append("\(entity.name): new entity")
                continue
            }
            if old.name != entity.name { changes.append("\(entity.name): renamed from \(old.name)") }
            if old.parentName.flatMap({ name in destination.entities.first { sourceEntities[$0.index]?.name == name }?.name })
                != entity.parentName
            {
                changes.append("\(entity.name): parent \(old.parentName ?? "none") → \(entity.parentName ?? "none")")
            }
            for attribute in entity.ownAttributes {
                let name = "\(entity.name).\(attribute.name)"
                guard let before = old.attribute(named: attribute.renamingIdentifier ?? attribute.name) else {
                    changes.append("\(name): new attribute (\(attribute.type.rawValue)\(attribute.isOptional ? ", optional" : ""))")
                    continue
                }
                if before.name != attribute.name { changes.append("\(name): renamed from \(before.name)") }
                if before.type != attribute.type { changes.append("\(name): \(before.type.rawValue) → \(attribute.type.rawValue)") }
                if before.isOptional != attribute.isOptional {
                    changes.append("\(name): \(attribute.isOptional ? "now optional" : "now required")")
                }
                if before.isTransient != attribute.isTransient {
                    changes.append("\(name): \(attribute.isTransient ? "now transient" : "now stored")")
                }
                if before.isIndexed != attribute.isIndexed {
                    changes.append("\(name): \(attribute.isIndexed ? "now indexed" : "no longer indexed")")
                }
            }
            for attribute in old.ownAttributes
            where !entity.attributes.contains(where: { ($0.renamingIdentifier ?? $0.name) == attribute.name }) {
                changes.append("\(entity.name).\(attribute.name): removed")
            }
            for relationship in entity.ownRelationships {
                let name = "\(entity.name).\(relationship.name)"
                guard let before = old.relationship(named: relationship.renamingIdentifier ?? relationship.name) else {
                    changes.append("\(name): new relationship to \(relationship.destinationEntityName)")
                    continue
                }
                if before.name != relationship.name { changes.append("\(name): renamed from \(before.name)") }
                if before.isToMany != relationship.isToMany || before.isOrdered != relationship.isOrdered {
                    changes.append(
                        "\(name): \(before.isToMany ? "to-many" : "to-one") → \(relationship.isToMany ? "to-many" : "to-one")\(relationship.isOrdered ? " (ordered)" : "")"
                    )
                }
            }
            for relationship in old.ownRelationships
            where !entity.relationships.contains(where: { ($0.renamingIdentifier ?? $0.name) == relationship.name }) {
                changes.append("\(entity.name).\(relationship.name): removed")
            }
            if Set(old.ownUniquenessConstraints.map { $0.sorted() }) != Set(entity.ownUniquenessConstraints.map { $0.sorted() }) {
                changes.append(
                    "\(entity.name): uniqueness constraints \(old.ownUniquenessConstraints) → \(entity.ownUniquenessConstraints)")
            }
            if old.ownIndexes.elementsEqual(entity.ownIndexes) == false {
                changes.append("\(entity.name): indexes \(old.ownIndexes) → \(entity.ownIndexes)")
            }
        }
        for entity in source.entities where destinationEntity(from: entity) == nil {
            changes.append("\(entity.name): removed")
        }
        return changes
    }
}
