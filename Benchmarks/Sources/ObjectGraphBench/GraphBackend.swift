import BenchSQLite
import Foundation

/// One way of storing the `Author` ↔ `Book` graph (`Models/BenchmarkGraph.json`) for G1–G4.
/// As with `Backend`, `open` and `close` and the `prepare…` setup are not timed; every other
/// method is, including its commit. GRDB has no backend here (see Benchmarks/README.md).
protocol GraphBackend: AnyObject {
    /// G1: creates every author and book, each book's `author` set, and saves in one transaction.
    func insertGraph(_ dataset: GraphDataset) throws

    /// G2: fetches every book with its author and reads the book's title, pages and price and its
    /// author's name and born.
    func fetchBooksWithAuthors() throws -> Checksum

    /// G3: fetches every author and walks its `books`, reading every attribute of each.
    func walkAuthorsToBooks() throws -> Checksum

    /// G4 setup: finds the authors to delete.
    func prepareCascadeDelete() throws
    /// G4: deletes every prepared author and its books, and saves in one transaction.
    func deleteAuthorsCascading() throws

    /// Q3: fetches the authors with some book whose title begins with `prefix` (`ANY books.title
    /// BEGINSWITH`), `queries` times, reading each author's name and born (in no particular order).
    func authorsWithBookTitle(prefix: String, queries: Int) throws -> Checksum

    /// Closes the store.
    func close() throws
}

/// Opens (creating if needed) the graph store of `kind` at `location`. Not timed.
func openGraphBackend(_ kind: BackendKind, at location: StoreLocation) throws -> any GraphBackend {
    switch kind {
    case .raw: try RawSQLiteGraphBackend(location: location)
    case .objectGraph: try ObjectGraphGraphBackend(location: location)
    case .grdb, .objectGraphTyped, .objectGraphPrepared, .postgresRaw, .objectGraphPostgres: throw VerificationFailure(description: "\(kind.displayName) does not run the object-graph workloads")
    }
}

/// Reads the whole graph of any backend's store with plain SQL (the raw and ObjectGraph tables are
/// the same) and checksums it the way G3 does: each author with the books whose `author` column
/// holds its key. Books without a valid author are counted as orphans, so they never match.
func graphTableChecksum(at url: URL) throws -> Checksum {
    let connection = try SQLiteConnection(url: url)
    defer { try? connection.close() }
    var authors: [AuthorRow] = []
    var books: [BookChecksum] = []
    var positions: [Int64: Int] = [:]
    let authorStatement = try connection.prepare(#"SELECT "_pk", "name", "born" FROM "Author""#)
    while try authorStatement.step() {
        positions[sqlite3_column_int64(authorStatement.handle, 0)] = authors.count
        authors.append(AuthorRow(name: authorStatement.text(1), born: sqlite3_column_int64(authorStatement.handle, 2)))
        books.append(BookChecksum())
    }
    var checksum = Checksum()
    let bookStatement = try connection.prepare(#"SELECT "author", "title", "pages", "price" FROM "Book""#)
    while try bookStatement.step() {
        let handle = bookStatement.handle
        let title = bookStatement.text(1)
        let pages = sqlite3_column_int64(handle, 2)
        let price = sqlite3_column_double(handle, 3)
        if sqlite3_column_type(handle, 0) != SQLITE_NULL, let position = positions[sqlite3_column_int64(handle, 0)] {
            books[position].add(title: title, pages: pages, price: price)
        } else {
            checksum.addOrphanBook(title: title, pages: pages, price: price)
        }
    }
    for (author, books) in zip(authors, books) {
        checksum.addAuthor(name: author.name, born: author.born, books: books)
    }
    return checksum
}
