import Foundation

@testable import ObjectGraph

/// The model of the relationship conformance tests: every kind of relationship and delete rule.
///
/// - Author.books ↔ Book.author: one-to-many, cascade from the author, nullify from the book.
/// - Book.tags (ordered) ↔ Tag.books: many-to-many, one side ordered.
/// - Book.chapters (ordered, cascade) ↔ Chapter.book (required).
/// - Publisher.catalog (deny) ↔ Book.publisher.
/// - Employee.manager ↔ Employee.reports (reflexive), Employee.friends (its own inverse),
///   Employee.mentor (one-way), Employee.desk ↔ Desk.owner (one-to-one).
/// - Team.members: at least 1, at most 3 Employees, one-way and unordered.
/// - Node.children (cascade) ↔ Node.parent, Node.links (cascade) ↔ Node.linkedFrom: graphs with cycles.
enum GraphModel {
    static let json = """
        { "name": "Graph", "version": 1, "entities": [
          { "name": "Author", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "author", "deleteRule": "cascade" } ] },
          { "name": "Book", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [
              { "name": "author", "destination": "Author", "inverse": "books" },
              { "name": "tags", "destination": "Tag", "toMany": true, "ordered": true, "inverse": "books" },
              { "name": "chapters", "destination": "Chapter", "toMany": true, "ordered": true, "inverse": "book", "deleteRule": "cascade" },
              { "name": "publisher", "destination": "Publisher", "inverse": "catalog" } ] },
          { "name": "Tag", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "inverse": "tags" } ] },
          { "name": "Chapter", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "book", "destination": "Book", "inverse": "chapters", "optional": false } ] },
          { "name": "Publisher", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "catalog", "destination": "Book", "toMany": true, "inverse": "publisher", "deleteRule": "deny" } ] },
          { "name": "Employee", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "manager", "destination": "Employee", "inverse": "reports" },
              { "name": "reports", "destination": "Employee", "toMany": true, "inverse": "manager" },
              { "name": "friends", "destination": "Employee", "toMany": true, "inverse": "friends" },
              { "name": "mentor", "destination": "Employee", "inverse": null },
              { "name": "desk", "destination": "Desk", "inverse": "owner" } ] },
          { "name": "Desk", "attributes": [ { "name": "number", "type": "integer32" } ],
            "relationships": [ { "name": "owner", "destination": "Employee", "inverse": "desk", "deleteRule": "noAction" } ] },
          { "name": "Team", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "members", "destination": "Employee", "toMany": true, "inverse": null, "optional": false, "minCount": 1, "maxCount": 3 } ] },
          { "name": "Node", "attributes": [ { "name": "number", "type": "integer64" } ],
            "relationships": [
              { "name": "parent", "destination": "Node", "inverse": "children" },
              { "name": "children", "destination": "Node", "toMany": true, "inverse": "parent", "deleteRule": "cascade" },
              { "name": "links", "destination": "Node", "toMany": true, "inverse": "linkedFrom", "deleteRule": "cascade" },
              { "name": "linkedFrom", "destination": "Node", "toMany": true, "inverse": "links" } ] }
        ] }
        """

    static func load() throws -> ManagedObjectModel {
        try ManagedObjectModel(data: Data(json.utf8))
    }
}

extension TestStore {
    /// A loaded store of `kind` for the graph model.
    static func graph(_ kind: StoreKind) throws -> TestStore {
        try TestStore(kind, model: GraphModel.load)
    }

    /// Saves a small library: Ann wrote Dune (2 chapters, tags scifi) and Emma; Bob wrote
    /// Ulysses. Acme publishes Dune.
    func insertGraphLibrary() throws {
        try withNewContext { (context: ManagedObjectContext) throws in
            let ann = try context.insert("Author", ["name": "Ann"])
            let bob = try context.insert("Author", ["name": "Bob"])
            let dune = try context.insert("Book", ["title": "Dune", "author": ann])
            try context.insert("Book", ["title": "Emma", "author": ann])
            try context.insert("Book", ["title": "Ulysses", "author": bob])
            try dune.addRelatedObjects(
                [try context.insert("Chapter", ["title": "c1"]), try context.insert("Chapter", ["title": "c2"])], forKey: "chapters")
            try dune.addRelatedObject(try context.insert("Tag", ["name": "scifi"]), forKey: "tags")
            try context.insert("Publisher", ["name": "Acme", "catalog": Set([dune])])
            try context.save()
        }
    }
}

extension ManagedObjectContext {
    /// Authors "Author 0" … "Author \(count - 1)", author n with `books(n)` books "Book n.0", ….
    func insertAuthors(_ count: Int, books: (Int) -> Int) throws {
        for number in 0..<count {
            let author = try insert("Author", ["name": "Author \(number)"])
            for index in 0..<books(number) { try insert("Book", ["title": "Book \(number).\(index)", "author": author]) }
        }
    }

    /// Inserts an object of `entityName` with `values`.
    @discardableResult
    func insert(_ entityName: String, _ values: [String: Any?] = [:]) throws -> ManagedObject {
        let object = try insertNewObject(forEntityName: entityName)
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }

    /// The only object of `entityName` whose `key` is `value`.
    func one(_ entityName: String, _ key: String, _ value: any Sendable) throws -> ManagedObject {
        let found = try fetch(
            FetchRequest<ManagedObject>(entityName: entityName, predicate: FetchPredicate(format: "%K == %@", key, value)))
        guard found.count == 1 else {
            throw ObjectGraphError(.objectNotFound, "expected one \(entityName) with \(key) = \(value), found \(found.count)")
        }
        return found[0]
    }
}

extension ManagedObject {
    /// The `key` values of the destinations of the to-many `relationship`, sorted.
    func names(_ relationship: String, _ key: String = "name") throws -> [String] {
        try relatedObjects(forKey: relationship).map { try $0.value(forKey: key, as: String.self) ?? "" }.sorted()
    }

    /// The `key` values of the destinations of the ordered `relationship`, in order.
    func orderedNames(_ relationship: String, _ key: String = "title") throws -> [String] {
        try orderedRelatedObjects(forKey: relationship).map { try $0.value(forKey: key, as: String.self) ?? "" }
    }

    /// The `key` value of the destination of the to-one `relationship`.
    func relatedName(_ relationship: String, _ key: String = "name") throws -> String? {
        try relatedObject(forKey: relationship)?.value(forKey: key, as: String.self)
    }
}
