import BenchSQLite
import Foundation

/// The physical limit for the object-graph workloads: ObjectGraph's own tables and index (without
/// its metadata tables), SQLite's C API with prepared statements, one transaction per write.
final class RawSQLiteGraphBackend: GraphBackend {
    private let connection: SQLiteConnection
    private var authorKeys: [Int64] = []

    /// What `objectgraph schema Models/BenchmarkGraph.json` creates, less `_objectgraph_*`.
    static let schema = """
        CREATE TABLE IF NOT EXISTS "Author" (
            "_pk" INTEGER PRIMARY KEY,
            "name" TEXT NOT NULL,
            "born" INTEGER NOT NULL,
            "_version" INTEGER NOT NULL DEFAULT 1
        ) STRICT;
        CREATE TABLE IF NOT EXISTS "Book" (
            "_pk" INTEGER PRIMARY KEY,
            "title" TEXT NOT NULL,
            "pages" INTEGER NOT NULL,
            "price" REAL NOT NULL,
            "author" INTEGER,
            "_version" INTEGER NOT NULL DEFAULT 1
        ) STRICT;
        CREATE INDEX IF NOT EXISTS "Book_author_idx" ON "Book" ("author");
        """

    /// An author as read back: its columns and, for G3, its books.
    private struct Author {
        var name: String
        var born: Int64
        var books: [Book] = []
    }

    /// A book as read back; `author` is its author's position in the array of authors.
    private struct Book {
        var key: Int64
        var title: String
        var pages: Int64
        var price: Double
        var author: Int
    }

    init(location: StoreLocation) throws {
        connection = try SQLiteConnection(url: location.url)
        try connection.execute(RawSQLiteGraphBackend.schema)
    }

    func close() throws { try connection.close() }

    /// Each author, then its ten books, with keys 1, 2, … per table (as ObjectGraph assigns them).
    func insertGraph(_ dataset: GraphDataset) throws {
        try connection.execute("BEGIN")
        let insertAuthor = try connection.prepare(#"INSERT INTO "Author" ("_pk", "name", "born") VALUES (?, ?, ?)"#)
        let insertBook = try connection.prepare(#"INSERT INTO "Book" ("_pk", "title", "pages", "price", "author") VALUES (?, ?, ?, ?, ?)"#)
        var bookKey: Int64 = 0
        for (index, author) in dataset.authors.enumerated() {
            let authorKey = Int64(index + 1)
            sqlite3_bind_int64(insertAuthor.handle, 1, authorKey)
            sqlite3_bind_int64(insertAuthor.handle, 3, author.born)
            var name = author.name
            // SQLITE_STATIC (nil): the buffers outlive the step that reads them.
            try name.withUTF8 { name in
                sqlite3_bind_text(insertAuthor.handle, 2, name.baseAddress, Int32(name.count), nil)
                _ = try insertAuthor.step()
            }
            insertAuthor.reset()
            for book in dataset.books(of: index) {
                bookKey += 1
                sqlite3_bind_int64(insertBook.handle, 1, bookKey)
                sqlite3_bind_int64(insertBook.handle, 3, Int64(book.pages))
                sqlite3_bind_double(insertBook.handle, 4, book.price)
                sqlite3_bind_int64(insertBook.handle, 5, authorKey)
                var title = book.title
                try title.withUTF8 { title in
                    sqlite3_bind_text(insertBook.handle, 2, title.baseAddress, Int32(title.count), nil)
                    _ = try insertBook.step()
                }
                insertBook.reset()
            }
        }
        try connection.execute("COMMIT")
    }

    /// Two queries, as ObjectGraph's prefetch does: every author into an array (and a map from key
    /// to position), every book into an array with its author's position; then the reading.
    func fetchBooksWithAuthors() throws -> Checksum {
        var authors: [Author] = []
        let positions = try readAuthors(into: &authors)
        var books: [Book] = []
        try readBooks { book in books.append(book) } position: { positions[$0] }
        var checksum = Checksum()
        for book in books {
            let author = authors[book.author]
            checksum.addBook(title: book.title, pages: book.pages, price: book.price, authorName: author.name, authorBorn: author.born)
        }
        return checksum
    }

    /// Two queries: every author, then every book appended to its author's array; then the walk.
    func walkAuthorsToBooks() throws -> Checksum {
        var authors: [Author] = []
        let positions = try readAuthors(into: &authors)
        try readBooks { book in authors[book.author].books.append(book) } position: { positions[$0] }
        var checksum = Checksum()
        for author in authors {
            var books = BookChecksum()
            for book in author.books { books.add(title: book.title, pages: book.pages, price: book.price) }
            checksum.addAuthor(name: author.name, born: author.born, books: books)
        }
        return checksum
    }

    /// The raw side knows its keys, as ObjectGraph's setup fetches its authors.
    func prepareCascadeDelete() throws {
        let statement = try connection.prepare(#"SELECT "_pk" FROM "Author""#)
        authorKeys = []
        while try statement.step() { authorKeys.append(sqlite3_column_int64(statement.handle, 0)) }
    }

    /// Per author, its books (through the index on `author`), then the author itself.
    func deleteAuthorsCascading() throws {
        try connection.execute("BEGIN")
        let deleteBooks = try connection.prepare(#"DELETE FROM "Book" WHERE "author" = ?"#)
        let deleteAuthor = try connection.prepare(#"DELETE FROM "Author" WHERE "_pk" = ?"#)
        for key in authorKeys {
            sqlite3_bind_int64(deleteBooks.handle, 1, key)
            _ = try deleteBooks.step()
            deleteBooks.reset()
            sqlite3_bind_int64(deleteAuthor.handle, 1, key)
            _ = try deleteAuthor.step()
            deleteAuthor.reset()
        }
        try connection.execute("COMMIT")
    }

    /// A correlated `EXISTS` on the books of each author (through the index on `author`), the
    /// prefix as a range of the `BINARY` collation: `title >= 'Be' AND title < 'Bf'`, which for
    /// ASCII titles is exactly `BEGINSWITH 'Be'`.
    func authorsWithBookTitle(prefix: String, queries: Int) throws -> Checksum {
        var upper = Array(prefix.utf8)
        guard let last = upper.popLast(), last < 0x7F else {
            throw VerificationFailure(description: "Q3 needs a non-empty ASCII prefix, not '\(prefix)'")
        }
        upper.append(last + 1)
        let statement = try connection.prepare(#"""
            SELECT "_pk", "name", "born" FROM "Author" WHERE EXISTS (
                SELECT 1 FROM "Book" WHERE "Book"."author" = "Author"."_pk" AND "Book"."title" >= ? AND "Book"."title" < ?)
            """#)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_bind_text(statement.handle, 1, prefix, -1, transient)
        sqlite3_bind_text(statement.handle, 2, String(decoding: upper, as: UTF8.self), -1, transient)
        var total = Checksum()
        for _ in 0..<queries {
            var authors: [Author] = []
            while try statement.step() {
                authors.append(Author(name: statement.text(1), born: sqlite3_column_int64(statement.handle, 2)))
            }
            statement.reset()
            var checksum = Checksum()
            for author in authors { checksum.addAuthor(name: author.name, born: author.born, books: BookChecksum()) }
            total.combine(checksum)
        }
        return total
    }

    /// Appends every author to `authors`; returns each key's position.
    private func readAuthors(into authors: inout [Author]) throws -> [Int64: Int] {
        let statement = try connection.prepare(#"SELECT "_pk", "name", "born" FROM "Author""#)
        var positions: [Int64: Int] = [:]
        while try statement.step() {
            positions[sqlite3_column_int64(statement.handle, 0)] = authors.count
            authors.append(Author(name: statement.text(1), born: sqlite3_column_int64(statement.handle, 2)))
        }
        return positions
    }

    /// Hands every book, with its author's position, to `body`.
    private func readBooks(_ body: (Book) -> Void, position: (Int64) -> Int?) throws {
        let statement = try connection.prepare(#"SELECT "_pk", "title", "pages", "price", "author" FROM "Book""#)
        let handle = statement.handle
        while try statement.step() {
            let authorKey = sqlite3_column_int64(handle, 4)
            guard let author = position(authorKey) else {
                throw VerificationFailure(description: "Book \(sqlite3_column_int64(handle, 0)) refers to a missing Author \(authorKey)")
            }
            body(Book(key: sqlite3_column_int64(handle, 0), title: statement.text(1), pages: sqlite3_column_int64(handle, 2),
                      price: sqlite3_column_double(handle, 3), author: author))
        }
    }
}
