import Foundation

@testable import ObjectGraph

/// The model of the inheritance conformance tests.
///
/// - Item (abstract; title, sku unique across all items) ← Book (pages, isbn unique among books)
///   ← Textbook (subject); Item ← Magazine (issue, and its own `pages`, stored as text).
/// - Shelf.items ↔ Item.shelf: a to-many to the abstract parent, holding any kind of item.
/// - Reader.favorite → Item (one-way to-one to the parent), Reader.books ↔ Book.readers (many-to-many to a sub-entity).
enum InheritanceModel {
    static let json = """
        { "name": "Shop", "version": 1, "entities": [
          { "name": "Item", "abstract": true,
            "attributes": [ { "name": "title", "type": "string" }, { "name": "sku", "type": "string" } ],
            "relationships": [ { "name": "shelf", "destination": "Shelf", "inverse": "items" } ],
            "uniquenessConstraints": [["sku"]] },
          { "name": "Book", "parent": "Item",
            "attributes": [ { "name": "pages", "type": "integer32" }, { "name": "isbn", "type": "string", "optional": true } ],
            "relationships": [ { "name": "readers", "destination": "Reader", "toMany": true, "inverse": "books" } ],
            "uniquenessConstraints": [["isbn"]], "indexes": [["pages"]] },
          { "name": "Textbook", "parent": "Book", "attributes": [ { "name": "subject", "type": "string" } ] },
          { "name": "Magazine", "parent": "Item", "attributes": [ { "name": "issue", "type": "integer32" }, { "name": "pages", "type": "string", "optional": true } ] },
          { "name": "Shelf", "attributes": [ { "name": "label", "type": "string" } ],
            "relationships": [ { "name": "items", "destination": "Item", "toMany": true, "ordered": true, "inverse": "shelf", "deleteRule": "cascade" } ] },
          { "name": "Reader", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "favorite", "destination": "Item", "inverse": null },
              { "name": "books", "destination": "Book", "toMany": true, "inverse": "readers" } ] }
        ] }
        """

    static func load() throws -> ManagedObjectModel {
        try ManagedObjectModel(data: Data(json.utf8))
    }
}
