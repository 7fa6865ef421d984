/// One `Author` of the object-graph workloads (G1–G4), as generated and checked.
struct AuthorRow: Sendable {
    var name: String
    var born: Int64
}

/// One `Book`; `author` is the index of its author in `GraphDataset.authors`.
struct BookRow: Sendable {
    var title: String
    var pages: Int32
    var price: Double
    var author: Int
}

/// The object-graph data set: N books, `booksPerAuthor` per author (so N / 10 authors), from the
/// same seeded LCG as the `Person` rows. Author `i`'s books are `books[i * 10 ..< (i + 1) * 10]`.
struct GraphDataset: Sendable {
    static let booksPerAuthor = 10

    let authors: [AuthorRow]
    let books: [BookRow]

    /// `bookCount` rounded down to whole authors, with at least one author.
    init(bookCount: Int, seed: UInt64 = Dataset.defaultSeed) {
        let authorCount = max(1, bookCount / GraphDataset.booksPerAuthor)
        // Another stream than the Person rows', so the two data sets are unrelated.
        var random = LCG(seed: seed ^ 0x6EA9_4000_0000)
        var authors: [AuthorRow] = []
        var books: [BookRow] = []
        authors.reserveCapacity(authorCount)
        books.reserveCapacity(authorCount * GraphDataset.booksPerAuthor)
        for index in 0..<authorCount {
            // "First Last": 5–12 and 5–15 letters, capitalised.
            let first = GraphDataset.capitalized(Dataset.text(length: random.next(in: 5...12), alphabet: Dataset.letters, random: &random))
            let last = GraphDataset.capitalized(Dataset.text(length: random.next(in: 5...15), alphabet: Dataset.letters, random: &random))
            authors.append(AuthorRow(name: first + " " + last, born: Int64(random.next(in: 1800...2005))))
            for _ in 0..<GraphDataset.booksPerAuthor {
                let title = GraphDataset.capitalized(Dataset.text(length: random.next(in: 8...40), alphabet: Dataset.bioLetters, random: &random))
                books.append(BookRow(
                    title: title,
                    pages: Int32(random.next(in: 40...1500)),
                    price: Double(random.next(in: 99...9999)) / 100,
                    author: index))
            }
        }
        self.authors = authors
        self.books = books
    }

    /// The books of the author at `index`.
    func books(of index: Int) -> ArraySlice<BookRow> {
        books[index * GraphDataset.booksPerAuthor ..< (index + 1) * GraphDataset.booksPerAuthor]
    }

    /// G2's expected result: every book with its author.
    var booksWithAuthorsChecksum: Checksum {
        var checksum = Checksum()
        for book in books {
            let author = authors[book.author]
            checksum.addBook(title: book.title, pages: Int64(book.pages), price: book.price, authorName: author.name, authorBorn: author.born)
        }
        return checksum
    }

    /// G3's expected result and the stored graph after G1: every author with its books.
    var graphChecksum: Checksum {
        var checksum = Checksum()
        for (index, author) in authors.enumerated() {
            var bookChecksum = BookChecksum()
            for book in books(of: index) { bookChecksum.add(title: book.title, pages: Int64(book.pages), price: book.price) }
            checksum.addAuthor(name: author.name, born: author.born, books: bookChecksum)
        }
        return checksum
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
