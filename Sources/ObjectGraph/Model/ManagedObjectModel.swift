import Foundation

/// A validated model: the entities a store holds, loaded from a JSON model file.
///
/// Load one with `ManagedObjectModel(contentsOf:)`, `ManagedObjectModel(data:)` or
/// `ManagedObjectModel(named:in:)`. A malformed model throws an `ObjectGraphError` of kind
/// `.invalidModel` listing every problem found.
public final class ManagedObjectModel: Sendable, CustomStringConvertible {
    /// The model's name (`"name"` in the file).
    public let name: String
    /// The model's version number (`"version"` in the file).
    public let version: Int
    /// The entities, in declaration order.
    public let entities: [EntityDescription]
    /// A hash of everything in the model that affects how data is stored. The same model always
    /// has the same hash; any schema-relevant change gives a new one.
    public let versionHash: String
    /// The file the model was loaded from, if it came from a file.
    public let sourceURL: URL?
    /// The model in canonical JSON (sorted keys), kept in the store's metadata.
    let canonicalJSON: Data
    /// Entity positions by name.
    private let entityNames: NameIndex

    init(name: String, version: Int, entities: [EntityDescription], versionHash: String, canonicalJSON: Data, sourceURL: URL?) {
        self.name = name
        self.version = version
        self.entities = entities
        self.versionHash = versionHash
        self.canonicalJSON = canonicalJSON
        self.sourceURL = sourceURL
        self.entityNames = NameIndex(entities.map(\.name))
    }

    /// The entity named `name`, or `nil`.
    public func entity(named name: String) -> EntityDescription? { entityNames.position(of: name).map { entities[$0] } }

    /// Whether `entity` is `ancestor` or one of its sub-entities.
    func entity(_ entity: EntityDescription, isKindOf ancestor: EntityDescription) -> Bool {
        var current: EntityDescription? = entity
        while let candidate = current {
            if candidate === ancestor { return true }
            current = candidate.parentName.flatMap(self.entity(named:))
        }
        return false
    }

    /// The entity named `name`, or an `.unknownEntity` error suggesting the closest name.
    func requireEntity(_ name: String) throws -> EntityDescription {
        if let entity = entity(named: name) { return entity }
        var message = "the model '\(self.name)' has no entity named '\(name)'"
        if let suggestion = closestName(to: name, among: entities.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; its entities are \(entities.map(\.name).joined(separator: ", "))"
        }
        throw ObjectGraphError(.unknownEntity, message, entityName: name)
    }

    /// Things in a valid model that deserve a second look, one sentence each: relationships
    /// declared one-way (`"inverse": null`), whose destinations do not know who refers to them.
    /// Loading logs them at warning level; `objectgraph validate` prints them.
    public var warnings: [String] {
        entities.flatMap { entity in
            // Inherited relationships are reported once, on the entity that declares them.
            let inherited = Set(entity.parentName.flatMap(self.entity(named:))?.relationships.map(\.name) ?? [])
            return entity.relationships.filter { $0.inverseIndex == nil && !inherited.contains($0.name) }.map { relationship in
                "\(entity.name).\(relationship.name) is one-way (\"inverse\": null): \(withArticle(relationship.destinationEntityName)) does not know which \(entity.name) objects refer to it, so deleting it leaves them pointing at a deleted object"
            }
        }
    }

    public var description: String { "\(name) v\(version) (\(entities.count) entities, hash \(versionHash.prefix(12)))" }
}
