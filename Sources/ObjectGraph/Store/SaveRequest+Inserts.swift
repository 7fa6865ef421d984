extension SaveRequest {
    /// The rows a save inserts, in order: rows given as they are (a batch insert, a store copy),
    /// or read from a context's new objects while the store writes them.
    ///
    /// A context's save does not copy each new object's ID and row into the request: that copy
    /// takes 24 bytes an object (2.4 MB in a save of 100,000 objects) on top of the objects, at
    /// the moment the save's memory peaks.
    package struct Inserts: RandomAccessCollection, ExpressibleByArrayLiteral, @unchecked Sendable {
        // Unchecked for `objects`: a context hands its objects to a store only for the length of
        // its own synchronous save, waiting on its queue while the store reads them, and nothing
        // changes them before the save returns.
        private enum Source {
            case rows([Insert])
            case objects([ManagedObject])
        }

        private let source: Source

        /// The inserts `rows`.
        package init(_ rows: [Insert]) {
            source = .rows(rows)
        }

        package init(arrayLiteral rows: Insert...) {
            self.init(rows)
        }

        /// The rows of new `objects`, read from them when asked for: each object's current ID and
        /// value row.
        init(objects: [ManagedObject]) {
            source = .objects(objects)
        }

        package var startIndex: Int { 0 }

        package var endIndex: Int {
            switch source {
            case .rows(let rows): rows.count
            case .objects(let objects): objects.count
            }
        }

        package subscript(position: Int) -> Insert {
            switch source {
            case .rows(let rows): rows[position]
            case .objects(let objects): Insert(objectID: objects[position].objectID, values: objects[position].values)
            }
        }

        /// The ID of insert `position`, read without its row (`self[position]` copies the row
        /// out, a retain and a release).
        package func objectID(at position: Int) -> ManagedObjectID {
            switch source {
            case .rows(let rows): rows[position].objectID
            case .objects(let objects): objects[position].objectID
            }
        }

        /// `first`'s inserts, then `second`'s (the parts of a save joined into one request).
        package static func + (first: Inserts, second: Inserts) -> Inserts {
            if first.isEmpty { return second }
            if second.isEmpty { return first }
            return Inserts(Array(first) + Array(second))
        }

        package static func += (first: inout Inserts, second: Inserts) {
            first = first + second
        }
    }
}
