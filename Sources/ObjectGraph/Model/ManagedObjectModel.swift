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
    /// Each entity's own version hash, by entity name (as Core Data's
    /// `entityVersionHashesByName`): an entity keeps its hash when other entities change, so
    /// these say which entities a new model version changed.
    public let entityVersionHashesByName: [String: String]
    /// The file the model was loaded from, if it came from a file.
    public let sourceURL: URL?
    /// The earlier versions of this model, oldest first, when it was loaded from a folder of
    /// versions (`init(versionsIn:)`): a store written by one of them migrates through each
    /// later one in turn.
    public let previousVersions: [ManagedObjectModel]
    /// The model in canonical JSON (sorted keys), kept in the store's metadata.
    let canonicalJSON: Data
    /// Entity positions by name.
    private let entityNames: NameIndex
    /// Per entity: the position of the root of its inheritance hierarchy (itself when it has no parent).
    package let rootIndexes: [Int]
    /// Per entity: itself and every entity that inherits from it, directly or not, parents before
    /// their children.
    let kindIndexes: [[Int]]
    /// The class registered for each entity's objects (see `register(_:)`).
    let classRegistry: ObjectClassRegistry

    init(
        name: String, version: Int, entities: [EntityDescription], versionHash: String, canonicalJSON: Data, sourceURL: URL?,
        previousVersions: [ManagedObjectModel] = []
    ) {
        self.previousVersions = previousVersions
        self.name = name
        self.version = version
        self.entities = entities
        self.versionHash = versionHash
        self.entityVersionHashesByName = Dictionary(
            uniqueKeysWithValues: zip(entities.map(\.name), ModelVersionHash.entityHashes(of: entities)))
        self.canonicalJSON = canonicalJSON
        self.sourceURL = sourceURL
        self.classRegistry = ObjectClassRegistry(entityCount: entities.count)
        let entityNames = NameIndex(entities.map(\.name))
        self.entityNames = entityNames
        let parents = entities.map { $0.parentName.flatMap(entityNames.position(of:)) }
        var children = Array(repeating: [Int](), count: entities.count)
        for (index, parent) in parents.enumerated() { if let parent { children[parent].append(index) } }
        self.rootIndexes = entities.indices.map { index in
            var root = index
            while let parent = parents[root] { root = parent }
            return root
        }
        self.kindIndexes = entities.indices.map { index in
            var kinds: [Int] = []
            var pending = [index]
            while !pending.isEmpty {
                let next = pending.removeFirst()
                kinds.append(next)
                pending += children[next]
            }
            return kinds
        }
    }

    /// The entities that inherit from `entity`, directly or not (not `entity` itself).
    public func subentities(of entity: EntityDescription) -> [EntityDescription] {
        kindIndexes[entity.index].dropFirst().map { entities[$0] }
    }

    /// `entity` and every entity that inherits from it: the entities a fetch of `entity` returns.
    func kinds(of entity: EntityDescription) -> [EntityDescription] {
        kindIndexes[entity.index].map { entities[$0] }
    }

    /// The root of `entity`'s inheritance hierarchy; its store table holds the whole hierarchy.
    package func root(of entity: EntityDescription) -> EntityDescription {
        entities[rootIndexes[entity.index]]
    }

    /// Whether `entity` shares its table with other entities (it has a parent or sub-entities).
    func isInHierarchy(_ entity: EntityDescription) -> Bool {
        kindIndexes[rootIndexes[entity.index]].count > 1
    }

    /// The entity named `name`, or `nil`.
    public func entity(named name: String) -> EntityDescription? { entityNames.position(of: name).map { entities[$0] } }

    /// Whether `entity` is `ancestor` or one of its sub-entities.
    package func entity(_ entity: EntityDescription, isKindOf ancestor: EntityDescription) -> Bool {
        entity === ancestor || kindIndexes[ancestor.index].contains(entity.index)
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
