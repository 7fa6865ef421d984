import Foundation
import Testing

@testable import ObjectGraph

extension ManagedObjectContext {
    /// Inserts an `Item` with `code` (its only required value without a default).
    @discardableResult
    func insertItem(_ code: String?, _ values: [String: Any?] = [:]) throws -> ManagedObject {
        let item = try insertNewObject(forEntityName: "Item")
        try item.setValue(code, forKey: "code")
        for (key, value) in values { try item.setValue(value, forKey: key) }
        return item
    }

    /// Inserts an object of `entityName` with `values`.
    @discardableResult
    func insertObject(_ entityName: String, _ values: [String: Any?]) throws -> ManagedObject {
        let object = try insertNewObject(forEntityName: entityName)
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }

    /// Inserts a new object of the subclass `objectClass` for the entity `entityName`, made as a
    /// program makes its own subclass's objects (`init(entity:insertInto:)`).
    func insert<Object: ManagedObject>(_ objectClass: Object.Type, entity entityName: String) throws -> Object {
        let entity = try #require(model?.entity(named: entityName))
        return objectClass.init(entity: entity, insertInto: self)
    }

    /// Inserts a `Person`.
    @discardableResult
    func insertPerson(_ name: String, age: Int? = nil, city: String? = nil) throws -> ManagedObject {
        let person = try insertNewObject(forEntityName: "Person")
        try person.setValue(name, forKey: "name")
        try person.setValue(age, forKey: "age")
        try person.setValue(city, forKey: "city")
        return person
    }

    /// The objects of `entityName` matching `format`, sorted by `sort` (`key` ascending, or
    /// `-key` descending).
    func objects(
        _ entityName: String, where format: String? = nil, sortedBy sort: [String] = [],
        limit: Int = 0, offset: Int = 0, includesPendingChanges: Bool = true
    ) throws -> [ManagedObject] {
        try fetch(
            request(
                entityName, where: format, sortedBy: sort, limit: limit, offset: offset,
                includesPendingChanges: includesPendingChanges))
    }

    /// The objects of `entityName` matching `format` with `arguments` for its `%` specifiers.
    func objects(_ entityName: String, where format: String, arguments: [Any]) throws -> [ManagedObject] {
        try fetch(FetchRequest<ManagedObject>(entityName: entityName, predicate: FetchPredicate(format: format, argumentArray: arguments)))
    }

    /// The item whose code is `code`, or `nil`.
    func item(_ code: String) throws -> ManagedObject? {
        try fetch(FetchRequest<ManagedObject>(entityName: "Item", predicate: FetchPredicate(format: "code == %@", code))).first
    }
}

/// A request for `entityName` matching `format`, sorted by `sort` (`key` or `-key`).
func request(
    _ entityName: String, where format: String? = nil, sortedBy sort: [String] = [],
    limit: Int = 0, offset: Int = 0, includesPendingChanges: Bool = true
) throws -> FetchRequest<ManagedObject> {
    var request = FetchRequest<ManagedObject>(entityName: entityName)
    if let format { request.predicate = try FetchPredicate(format: format) }
    request.sortDescriptors = sort.map { key in
        key.hasPrefix("-")
            ? FetchSortDescriptor(key: String(key.dropFirst()), ascending: false) : FetchSortDescriptor(key: key, ascending: true)
    }
    request.fetchLimit = limit
    request.fetchOffset = offset
    request.includesPendingChanges = includesPendingChanges
    return request
}

extension ManagedObject {
    /// The value of `key` as `T`; fails the calling test through `throws` when it cannot be read.
    func get<T>(_ key: String, as type: T.Type = T.self) throws -> T? {
        try value(forKey: key, as: type)
    }

    /// `name` of a Person, or `code` of an Item: how tests list results.
    var label: String {
        let key = entity.name == "Person" ? "name" : "code"
        return ((try? value(forKey: key, as: String.self)) ?? nil) ?? "?"
    }
}
